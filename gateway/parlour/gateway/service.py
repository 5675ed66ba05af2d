"""parlour.gateway.v1.GatewayService, assembled from its rooms:

- edge.py: who is calling (seat token or spectator), request bounds, revocation watch;
- matches.py: CreateMatch, JoinMatch, GetMatch, LeaveMatch and the Match resource;
- forward.py: calls answered by the rules replica (ListGames, GetView, ListActions,
  SubmitAction, SampleHidden, GetMatchLog);
- undo.py: UndoAction, AnswerUndo, SetAway;
- lobby_calls.py: ListMatches, JoinOrCreate;
- streams.py: StreamEvents and Play (play.py runs one Play session);
- records.py: GetPlayerRecord, ListLeaderboard (players' ratings, issue 36);
- tickets.py: FindMatch, CancelTicket (matchmaking, issue 45);
- notices.py: Get/SetNotificationPreferences (issue 44).
"""

from __future__ import annotations

from parlour.gateway.lobby_calls import LobbyCalls
from parlour.gateway.notices import NoticeCalls
from parlour.gateway.records import RecordCalls
from parlour.gateway.streams import StreamCalls
from parlour.gateway.tickets import TicketCalls
from parlour.gateway.undo import UndoCalls
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc


class GatewayService(
    StreamCalls, UndoCalls, LobbyCalls, RecordCalls, TicketCalls, NoticeCalls,
    gw_grpc.GatewayServiceServicer,
):
    """The public API (constructed with edge.Edge's parts)."""
