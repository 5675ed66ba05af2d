"""The words a person reads: labels, event lines and the table (issue 24; Rulebook: Gameplay)."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.rng import Rng
from parlour.engine.simulate import steps
from parlour.engine.text import label_problems, seats_named, table_lines, text_problems
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.catalogue import card_name
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import act, held, play_round, position, rigged_rng

NAMES = ["Sofia", "Vlad", "Pedro", "Faith", "Ann", "Bob"]


def _seat_problems(lines: list[str], seats: int) -> list[str]:
    return [line for line in lines for n in seats_named(line) if n >= seats]


def _table_problems(state, seats: int) -> list[str]:
    """What is wrong in the table as every seat and a spectator read it."""
    problems: list[str] = []
    for viewer in [*range(seats), None]:
        lines = table_lines(GAME.describe_view(runtime.view(GAME, state, viewer), viewer))
        problems += text_problems(lines) + _seat_problems(lines, seats)
    return problems


def _sweep(seats: int, seed: int, tables_every: int) -> list[str]:
    """Play one seeded random match of every variant; return every problem in its words."""
    problems: list[str] = []
    for variant in GAME.variants():
        state = GAME.new_state(variant.options, seats, seed)
        for step in steps(GAME, state, Rng.from_seed(seed), first_seat=True):
            if (step.number - 1) % tables_every == 0:
                problems += _table_problems(step.before, seats)
            labels = GAME.label_actions(step.before, step.seat, step.actions)
            problems += label_problems(labels) + _seat_problems(labels, seats)
            lines = [GAME.describe_event(e.event) for e in step.events]
            problems += text_problems(lines) + _seat_problems(lines, seats)
            state = step.after
        problems += _table_problems(state, seats)
        assert GAME.outcome(state) is not None
    return problems


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_every_label_event_and_table_line_reads_without_repeats_or_ids(seats):
    """Over whole seeded matches every decision's labels differ and name no ids, and every
    event and table line (each seat and the spectator) names only real seats (Rulebook:
    Gameplay)."""
    for seed in range(10):
        assert _sweep(seats, seed, tables_every=3) == []


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_many_more_matches_read_right(seats):
    """The same over many more matches, the table at every step (Rulebook: Gameplay)."""
    for seed in range(10, 40):
        assert _sweep(seats, seed, tables_every=1) == []


def test_sample_lines():
    """Descriptions name cards, seats and sides (Rulebook: Gameplay)."""
    declare = pb.Action(declare_battle=pb.DeclareBattle(battle=pb.BATTLE_BLOODBATH))
    assert GAME.describe_action(declare) == "declares a Bloodbath"
    give = pb.Action(give_spoil=pb.GiveSpoil(card=1, seat=2))
    assert GAME.describe_action(give) == "gives Psychic Kid to {seat:2}"
    played = pb.Event(played=pb.CardPlayed(seat=1, card=1, side=pb.SIDE_MORTAL))
    assert GAME.describe_event(played) == "{seat:1} played Psychic Kid for the Mortals"
    assert GAME.describe_event(pb.Event(drawn=pb.CardsDrawn(seat=2, count=1))) == (
        "{seat:2} drew 1 card"
    )
    drawn = pb.Event(drawn=pb.CardsDrawn(seat=2, count=2, cards=[1, 2]))
    assert GAME.describe_event(drawn) == "{seat:2} drew 2 cards: Psychic Kid, Psychic Kid"


def test_the_first_reveal_reaches_the_feed_with_the_butlers_choice():
    """The first Butler reveals during setup, which emits no events, so the choice of Room names
    every card revealed (Rulebook: Gameplay, "The Butler draws cards … faceup")."""
    state = GAME.new_state(GAME.default_options(4), 4, 5)
    shown = [card_name(c) for c in state.revealed]
    room = state.revealed_rooms[0]
    state, events = runtime.apply(GAME, state, 0, pb.Action(choose_room=pb.ChooseRoom(room=room)))
    line = GAME.describe_event(events[0].event)
    assert line.startswith(f"{{seat:0}} chose {card_name(room)} (")
    assert line.endswith(f"(revealed: {', '.join(shown)})")


def test_a_room_item_from_the_table_reads_as_taken_not_played():
    """A Room Item comes from the table, not the hand: "She may also take and play one Room Item
    … from the table" (Rulebook: Gameplay)."""
    state = position(
        3,
        hands={0: ["Werewolf"]},
        room="Kitchen",
        battle=pb.BATTLE_STRENGTH,
        table=["Rusty Chains"],
    )
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    labels = GAME.label_actions(state, 0, runtime.legal_actions(GAME, state, 0))
    assert "take Rusty Chains (adds no Strength) from the table" in labels
    state, events = act(state, 0, take_room_item=pb.TakeRoomItem(card=state.table[0]))
    assert GAME.describe_event(events[0].event) == (
        "{seat:0} took Rusty Chains from the table for the Horrors"
    )


def test_labels_give_each_card_its_value_in_the_battle_declared():
    """The Butler's choices name each card with the value that counts: "Ignore all values not
    of the type declared in the room" (Rulebook: Gameplay; Resolution)."""
    hands = {0: ["Psychic Kid", "Groundskeeper", "Crystal Ball", "Grimoire"]}
    state = position(4, hands=hands, room="Kitchen", battle=pb.BATTLE_PSYCHIC)
    labels = GAME.label_actions(state, 0, runtime.legal_actions(GAME, state, 0))
    assert "play Psychic Kid (Psychic ?)" in labels
    assert "play Groundskeeper (Psychic 0)" in labels
    assert "play Crystal Ball (+2 Psychic, +4 with a Mage) for the Horrors" in labels
    assert "play Grimoire (+2 Psychic, +4 with a Mage) for the Horrors" in labels
    assert "discard Grimoire" in labels


def test_claims_name_whose_card_and_spoils_name_the_ally():
    """A Claim names the card and whose it is; the leader's gifts name the ally (Rulebook:
    Special Cases, Claiming Cards; The Spoils)."""
    hands = {0: ["Medium"], 1: ["Nurse"], 2: ["Vampire"]}
    state = position(3, hands=hands, room="Kitchen", battle=pb.BATTLE_TERROR)
    for s, name in ((0, "Medium"), (1, "Nurse")):
        state, _ = act(state, s, play_character=pb.PlayCharacter(card=held(state, s, name)))
        state, _ = act(state, s, end_turn=pb.EndTurn())
    state.rng = rigged_rng(6)
    state, _ = act(state, 2, play_character=pb.PlayCharacter(card=held(state, 2, "Vampire")))
    labels = GAME.label_actions(state, 2, runtime.legal_actions(GAME, state, 2))
    assert sorted(labels) == [
        "claim nothing", "claim {seat:0}'s Medium", "claim {seat:1}'s Nurse"
    ]
    state, _ = act(state, 2, claim=pb.ClaimCard(card=held_by(state, 0, "Medium")))
    hands = {0: ["Werewolf"], 1: ["Ghoul"], 2: ["Zombie"], 3: ["Ghost Hunter"]}
    state = position(4, hands=hands, room="Crypt", battle=pb.BATTLE_STRENGTH, table=["Midnight"])
    plays = {0: ["Werewolf"], 1: ["Ghoul"], 2: ["Zombie"], 3: ["Ghost Hunter"]}
    state, _ = play_round(state, plays)
    labels = GAME.label_actions(state, 0, runtime.legal_actions(GAME, state, 0))
    assert sorted(labels) == ["take Ghost Hunter (1 hourglass) for yourself",
                              "take Midnight (1 hourglass) for yourself"]
    midnight = state.spoils_pool[-1]
    state, _ = act(state, 0, take_spoil=pb.TakeSpoil(card=midnight))
    labels = GAME.label_actions(state, 0, runtime.legal_actions(GAME, state, 0))
    assert sorted(labels) == ["give Ghost Hunter (1 hourglass) to {seat:1}",
                      "give Ghost Hunter (1 hourglass) to {seat:2}"]


def held_by(state: pb.State, seat: int, name: str) -> int:
    """The id of a named card a seat shows on the table."""
    return next(c for c in state.showings[seat].characters if card_name(c) == name)


def _table(state: pb.State, viewer: int | None) -> dict[str, list[tuple[str, str]]]:
    text = GAME.describe_view(runtime.view(GAME, state, viewer), viewer)
    return {part.title: [(i.text, i.detail) for i in part.items] for part in text.sections}


def test_the_table_reads_as_the_house_the_clock_the_encounter_and_your_cards():
    """The View in the rulebook's words: the Room and its floor, the battle, Midnight and Dawn,
    each side's cards and total so far, your hand by name and value with the card's face as
    its detail, your face-down spoils with their hourglasses; a spectator sees no hand
    (Rulebook: Gameplay; The Spoils; Special Cases, Midnight and Dawn)."""
    hands = {0: ["Werewolf", "Ghoul"], 1: ["Psychic Kid", "Shotgun"]}
    state = position(3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH,
                     table=["Midnight", "Rusty Chains"], spoils={1: ["Vampire", "Lantern"]})
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Ghoul")))
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    mine = _table(state, 1)
    house = [text for text, _ in mine["The House"]]
    assert house[:4] == ["Butler: {seat:0}", "Now: {seat:1} to play", "Room: Kitchen (Main Floor)",
                         "Battle: Strength"]
    assert "On the table: Rusty Chains (Room Item: adds no Strength)" in house
    clock = [text for text, _ in mine["The clock"]]
    assert clock == ["Midnight is on the table: two Mortals or two Horrors each this round",
                     "Dawn is still in the Room deck (shuffled into its bottom third)"]
    encounter = [text for text, _ in mine["The encounter"]]
    assert encounter == [
        "{seat:0} for the Horrors: Werewolf (Horror: Strength 4), Ghoul (Horror: Strength 2)",
        "So far: Mortals 0, Horrors 6",
    ]
    hand = mine["Your hand: 2 cards, hand size 6"]
    assert [text for text, _ in hand] == ["Psychic Kid (Mortal: Strength 0)",
                                          "Shotgun (Item, Mortals only: +2 Strength)"]
    assert hand[0][1].startswith("Psychic Kid: Mortal; Psychic ?, Strength 0, Terror 1; may go")
    assert hand[1][1].endswith(". +2 Strength; Mortals only")
    spoils = [text for text, _ in mine["Your spoils, face down"]]
    assert spoils == ["3 hourglasses, 1 lantern", "Vampire (3 hourglasses)",
                      "Lantern (0 hourglasses)"]
    players = [text for text, _ in mine["Players"]]
    assert players[1] == "{seat:1}: 2 cards in hand, 2 spoils face down"
    watching = _table(state, None)
    assert not any(title.startswith("Your") for title in watching)
    assert watching["The encounter"] == mine["The encounter"]
