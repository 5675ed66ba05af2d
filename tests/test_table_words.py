"""Issues 12 item 2 and 24: what the clients show a person, in words."""

from __future__ import annotations

from parlour.client.seating import Seating, check_game_seating, check_seating
from parlour.client.table import Snapshot
from parlour.client.terminal import table_text
from parlour.client.words import (
    catalogue_namer,
    clock_lines,
    clock_text,
    event_text,
    owes_undo_answer,
    undo_text,
    view_lines,
)
from parlour.engine import LocalMatch
from parlour.engine.registry import get_game
from parlour.gateway.v1 import gateway_pb2 as gw


def test_enum_values_are_spelled_out_and_empty_parts_left_out():
    """Issue 12 item 2: hand cards by name, phase in words, no empty sections."""
    match = LocalMatch("isayholmes", 3, seed=1)
    lines = view_lines(match.view(0))
    hand = next(line for line in lines if line.startswith("Hand: "))
    assert "CARD_" not in hand and hand != "Hand: none"
    assert "Phase: Turn" in lines
    assert "Effect:" not in lines


def test_catalogue_ids_are_named():
    """Issue 12 item 2: House of Horrors hand shows card names from the game's catalogue."""
    game = get_game("houseofhorrors")
    match = LocalMatch(game, 3, seed=1)
    hand = next(line for line in view_lines(match.view(0), catalogue_namer(game))
                if line.startswith("Hand: "))
    names = {c.name for c in game.catalogue().cards}
    assert all(card in names for card in hand.removeprefix("Hand: ").split(", "))


def test_murder_castle_rooms_are_named_not_numbered():
    """Issue 12 item 2: Murder Castle places (tile * 2 + room) read as room names."""
    game = get_game("murdercastle")
    match = LocalMatch(game, 3, seed=1)
    lines = view_lines(match.view(0), catalogue_namer(game))
    assert "Holmes: Basement #1" in lines
    players = lines[lines.index("Players:") + 1]
    assert "place Pharmacy" in players
    namer = catalogue_namer(game)
    maze = next(r.number for r in game.catalogue().rooms if len(r.halves) > 1)
    assert namer("place", maze * 2).endswith("(north-west)")
    assert namer("to_place", maze * 2 + 1).endswith("(south-east)")


def test_seats_read_as_you_or_the_players_name():
    """Issue 24 item 2: "{seat:N}" becomes "You" for the viewer's own seat, else the name;
    feed lines read as sentences, with no actor prefix added."""
    game = get_game("tinycards")
    played = game.event_type(played={"seat": 1, "card": 7})
    names = ["Ada", "Bob"]
    assert event_text(game, played, "{seat:1} played the 7", 1, names) == "You played the 7"
    assert event_text(game, played, "", 0, names) == "Bob played the 7"
    assert event_text(game, played, "", None, ["Ada", ""]) == "Player 2 played the 7"
    assert event_text(game, played, "the game ended: {seat:0} 3", 0, names).startswith("The ")
    assert event_text(game, played, "{seat:1} played", 0, ["Ada", "bot-2"]) == "bot-2 played"


def test_time_banks_run_only_while_the_seat_owes():
    """Issue 24 item 5: a bank counts down from bank_runs_from_unix_ms; a deadline counts
    down to the decision's deadline_unix_ms."""
    progress = gw.MatchProgress(
        pending=[gw.Decision(seat=1, kind="turn", deadline_unix_ms=100_000)],
        clocks=[gw.SeatClock(seat=0, bank_ms=60_000),
                gw.SeatClock(seat=1, bank_ms=60_000, bank_runs_from_unix_ms=40_000)],
    )
    lines = clock_lines(progress, 55_000, 0, ["Ada", "Bob"])
    assert lines == ["You: 1:00 in the bank", "Bob: 0:45 in the bank (running)",
                     "Bob has 0:45 to decide"]
    assert clock_text(-5) == "0:00" and clock_text(3_725_000) == "1:02:05"


def test_an_open_undo_request_says_who_asks_and_who_must_answer():
    """Issue 24 item 5: the request, the action it takes back, who still has to answer;
    Accept/Refuse only for a seat that is asked and has not accepted yet."""
    progress = gw.MatchProgress(undo_request=gw.UndoRequest(
        seat=1, took_back="{seat:1} played the 7", awaiting=[0, 2], accepted=[2]))
    names = ["Ada", "Bob", "Cy"]
    assert undo_text(progress, 0, names) == (
        "Bob asks to take back “Bob played the 7”; waiting for you.")
    assert owes_undo_answer(progress, 0)
    assert not owes_undo_answer(progress, 2) and not owes_undo_answer(progress, None)
    assert not owes_undo_answer(gw.MatchProgress(), 0)
    assert undo_text(gw.MatchProgress(), 0, names) == ""


def test_seat_counts_outside_the_variant_are_refused_and_empty_seats_offered_bots():
    """Issue 24 item 4: Seats=1 for a 3-seat game is an error before anything is created;
    seats nobody fills are a warning that offers bots."""
    assert check_seating("Trio", 3, 3, 1, 0).errors == ["Trio takes exactly 3 seats, not 1."]
    assert check_seating("Trio", 3, 3, 3, 3).errors == [
        "At most 2 bots: you take one of the 3 seats."]
    lonely = check_seating("Play as Holmes", 4, 4, 4, 1)
    assert not lonely.errors and lonely.empty == 2 and "Fill them with bots?" in lonely.warnings[0]
    assert check_seating("Duo", 2, 4, 2, 1) == Seating()
    tiny = get_game("tinycards")
    assert check_game_seating(tiny, None, 5, 4).errors == [
        "Tiny Cards (test game) takes 2 to 4 seats, not 5."]


def test_rules_text_is_behind_a_question_mark_in_the_terminal():
    """Issue 24 item 1: a table item's rules text is marked (?) and shown under it on `?`."""
    snapshot = Snapshot(
        gw.Match(), None, gw.MatchProgress(), [], [],
        gw.TableText(sections=[gw.TableSection(title="{seat:0}r hand", items=[
            gw.TableItem(text="Moriarty (7)", detail="Wins ties.\nCannot be discarded."),
            gw.TableItem(text="Watson (2)")])]),
        ["Ada"],
    )
    assert table_text(snapshot, 0, False) == ["Your hand", "  Moriarty (7) (?)", "  Watson (2)"]
    assert table_text(snapshot, 0, True) == [
        "Your hand", "  Moriarty (7)", "      Wins ties.", "      Cannot be discarded.",
        "  Watson (2)"]
