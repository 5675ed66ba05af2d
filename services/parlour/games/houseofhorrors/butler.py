"""The Butler's decisions: which revealed Room to fight in, and which battle to declare."""

from __future__ import annotations

from parlour.engine.game import Emitted, IllegalAction
from parlour.games.houseofhorrors.decks import discard
from parlour.games.houseofhorrors.events import public
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

BATTLES = (pb.BATTLE_PSYCHIC, pb.BATTLE_STRENGTH, pb.BATTLE_TERROR, pb.BATTLE_BLOODBATH)


def legal_rooms(state: pb.State) -> list[pb.Action]:
    """One action per revealed Room."""
    return [pb.Action(choose_room=pb.ChooseRoom(room=r)) for r in state.revealed_rooms]


def choose_room(state: pb.State, seat: int, action: pb.ChooseRoom) -> list[Emitted]:
    """Keep one revealed Room for the encounter and discard the other."""
    if action.room not in state.revealed_rooms:
        raise IllegalAction("ROOM_NOT_REVEALED", "that Room was not revealed this round")
    others = [r for r in state.revealed_rooms if r != action.room]
    for r in others:
        discard(state, r)
    del state.revealed_rooms[:]
    state.room = action.room
    state.phase = pb.PHASE_DECLARE
    chosen = pb.RoomChosen(
        seat=seat, room=action.room, discarded=others[0] if others else 0, revealed=state.revealed
    )
    return [public(room_chosen=chosen)]


def legal_battles() -> list[pb.Action]:
    """Psychic, Strength, Terror or Bloodbath."""
    return [pb.Action(declare_battle=pb.DeclareBattle(battle=b)) for b in BATTLES]


def declare(state: pb.State, seat: int, action: pb.DeclareBattle) -> list[Emitted]:
    """Declare the battle type; the Butler then plays first."""
    if action.battle not in BATTLES:
        raise IllegalAction("UNKNOWN_BATTLE", "declare Psychic, Strength, Terror or Bloodbath")
    state.battle = action.battle
    state.phase = pb.PHASE_PLAY
    state.turn = state.butler
    state.turns_done = 0
    return [public(battle_declared=pb.BattleDeclared(seat=seat, battle=action.battle))]
