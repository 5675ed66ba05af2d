"""GetNotificationPreferences and SetNotificationPreferences (issue 44): which kinds of notice
the notifier leaves out for the signed-in person (a set in Redis beside their record)."""

from __future__ import annotations

from parlour.gateway import identity
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import guarded
from parlour.store.matchstore import MatchStore


def kind_word(kind: int) -> str:
    """The webhook's "type" of a NotificationKind ("your_turn")."""
    return gw.NotificationKind.Name(kind).removeprefix("NOTIFICATION_KIND_").lower()


def kind_of(word: str) -> int:
    return gw.NotificationKind.Value(f"NOTIFICATION_KIND_{word.upper()}")


class NoticeCalls:
    """The caller's notification preferences."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    async def preferences(self, player: str) -> gw.NotificationPreferences:
        muted = await self.store.prefs.muted(player)
        return gw.NotificationPreferences(muted=sorted(kind_of(w) for w in muted))

    @guarded
    async def GetNotificationPreferences(self, request, context):
        who = identity.required("GetNotificationPreferences")
        return await self.preferences(who.key)

    @guarded
    async def SetNotificationPreferences(self, request, context):
        who = identity.required("SetNotificationPreferences")
        await self.store.prefs.mute(who.key, {kind_word(k) for k in request.preferences.muted})
        return await self.preferences(who.key)
