"""parlour.gateway.v1.GatewayService: a table of its RPCs, each answered by one of the small
services it is composed of (each constructed with only the parts it needs):

- edge.py: Edge, the shared parts; Callers, who is calling (seat token or spectator),
  request bounds, revocation watch;
- matches.py: CreateMatch, JoinMatch, GetMatch, LeaveMatch, ListMyMatches and the Match
  resource;
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

from parlour.gateway.edge import Callers, Edge
from parlour.gateway.forward import ForwardCalls
from parlour.gateway.lobby_calls import LobbyCalls
from parlour.gateway.matches import MatchCalls
from parlour.gateway.notices import NoticeCalls
from parlour.gateway.records import RecordCalls
from parlour.gateway.streams import StreamCalls
from parlour.gateway.tickets import TicketCalls
from parlour.gateway.undo import UndoCalls
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc


class GatewayService(gw_grpc.GatewayServiceServicer):
    """The public API: each RPC is the method of the service that answers it."""

    def __init__(self, edge: Edge) -> None:
        store, router, quotas, revocations = edge.store, edge.router, edge.quotas, edge.revocations
        callers = Callers(store, revocations, edge.identity_on, edge.trusted_proxies)
        lobby, ratings = edge.lobby, edge.ratings
        forward = ForwardCalls(callers, store, router, edge.hub)
        matches = MatchCalls(callers, store, router, lobby, quotas, revocations, edge.bot_runners)
        listing = LobbyCalls(callers, store, router, lobby, matches)
        streams = StreamCalls(
            callers, store, router, edge.hub, quotas, forward, matches, edge.heartbeat,
            edge.play_queue,
        )
        records = RecordCalls(ratings, router)
        notices = NoticeCalls(store)
        undo = UndoCalls(callers, router)
        #: Matchmaking (server.py starts its matcher and ends its streams on a drain).
        self.tickets = TicketCalls(store, router, ratings, quotas, revocations, edge.matchmaking)

        self.ListGames = forward.ListGames
        self.GetView = forward.GetView
        self.ListActions = forward.ListActions
        self.SubmitAction = forward.SubmitAction
        self.SampleHidden = forward.SampleHidden
        self.GetMatchLog = forward.GetMatchLog
        self.CreateMatch = matches.CreateMatch
        self.JoinMatch = matches.JoinMatch
        self.GetMatch = matches.GetMatch
        self.LeaveMatch = matches.LeaveMatch
        self.ListMyMatches = matches.ListMyMatches
        self.ListMatches = listing.ListMatches
        self.JoinOrCreate = listing.JoinOrCreate
        self.StreamEvents = streams.StreamEvents
        self.Play = streams.Play
        self.UndoAction = undo.UndoAction
        self.AnswerUndo = undo.AnswerUndo
        self.SetAway = undo.SetAway
        self.GetPlayerRecord = records.GetPlayerRecord
        self.ListLeaderboard = records.ListLeaderboard
        self.GetNotificationPreferences = notices.GetNotificationPreferences
        self.SetNotificationPreferences = notices.SetNotificationPreferences
        self.FindMatch = self.tickets.FindMatch
        self.CancelTicket = self.tickets.CancelTicket
