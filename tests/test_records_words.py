"""Issue 36 item 4: players' records in a person's words, as the terminal prints them (the
numbers the record and leaderboard carry; no raw record keys)."""

from __future__ import annotations

import hashlib
import re

from parlour.client.records import (
    change_text,
    leaderboard_lines,
    name_player,
    player_name,
    rating_text,
    record_lines,
    standing_line,
    where,
)
from parlour.engine.registry import get_game
from parlour.gateway.v1 import gateway_pb2 as gw

KEY = re.compile(r"players/|\bn[0-9a-f]{6,}|\bp[0-9a-f]{6,}")


def key(name: str) -> str:
    """A record key as a join answer names it (its form only: the gateway makes them)."""
    return f"players/n{hashlib.sha256(name.encode()).hexdigest()[:32]}"


def entry(rank: int, name: str, display: float, kind=gw.PLAYER_KIND_NAME,
          player: str = "") -> gw.LeaderboardEntry:
    return gw.LeaderboardEntry(
        rank=rank, player=player or key(name), display_name=name, kind=kind,
        rating=gw.Rating(mu=display + 10, sigma=3.3, display=display), matches=rank + 3, wins=1,
    )


def test_a_rating_shows_one_decimal_and_a_change_its_sign():
    """Issue 36 item 4: a rating with one decimal, a change as "+1.2" or "−0.8" (a minus
    sign, not a hyphen), no change as "+0.0"."""
    assert change_text(1.234) == "+1.2"
    assert change_text(-0.76) == "\u22120.8"
    assert change_text(-0.01) == "+0.0"
    assert change_text(0) == "+0.0"
    assert rating_text(-1.84) == "\u22121.8" and rating_text(-0.04) == "0.0"
    assert rating_text(27.34) == "27.3"


def test_the_standing_line_after_a_match():
    """Issue 36 item 4: "Your rating in <Game> (<variant title>): 27.3 (+3.1) — 4 rated
    matches, 2 wins, #3 of 12"; a game with one way to play is named once."""
    record = gw.GameRecord(game="clashofminds", variant="agents", matches=4, wins=2, rank=3,
                           rating=gw.Rating(mu=37.0, sigma=3.2, display=27.34))
    place = where(get_game("clashofminds"), "agents")
    assert standing_line(place, record, 12, 3.06) == (
        "Your rating in Clash of Minds: Holmes vs Moriarty (Agent Cards Included): 27.3 "
        "(+3.1) — 4 rated matches, 2 wins, #3 of 12")
    one = gw.GameRecord(matches=1, wins=1, rank=1, rating=gw.Rating(display=0.5))
    assert standing_line(where(get_game("isayholmes"), "standard"), one, 1, -0.8) == (
        "Your rating in I Say, Holmes!: 0.5 (\u22120.8) — 1 rated match, 1 win, #1 of 1")


def test_the_leaderboard_shows_the_top_then_the_viewer_marked():
    """Issue 36 item 4: the top rows, "…" where the viewer's neighbourhood is apart from
    them, the viewer's own row marked, bots and the game's Automa by name, no raw keys."""
    board = gw.ListLeaderboardResponse(
        players=40, variant="standard",
        top=[entry(1, "Ada", 31.2), entry(2, "Greedy bot", 28.0, gw.PLAYER_KIND_BOT,
                   "players/bot:greedy"),
             entry(3, "Automa", 20.0, gw.PLAYER_KIND_RULES, "players/game:automa")],
        around=[entry(11, "Ben", 9.0), entry(12, "Cleo", 8.5), entry(13, "Dan", 8.1)],
    )
    lines = leaderboard_lines(board, "House of Horrors", key("Cleo"))
    assert lines[0] == "Leaderboard of House of Horrors (40 players):"
    assert "Greedy bot" in lines[2] and "Automa (the game)" in lines[3]
    assert lines[4] == "  …"
    assert lines[6].startswith("  #12   Cleo") and lines[6].endswith("← you")
    assert sum("← you" in line for line in lines) == 1
    assert not [line for line in lines if KEY.search(line)]
    empty = leaderboard_lines(gw.ListLeaderboardResponse(), "I Say, Holmes!")
    assert empty == ["Leaderboard of I Say, Holmes!: nobody has finished a rated match yet."]


def test_a_record_lists_each_game_and_how_to_replay_each_match():
    """Issue 36 item 4: `parlour record` prints per game and variant the rating, tally and
    rank, then each recent match with its `parlour replay` command."""
    recent = [gw.RecordedMatch(match="matches/ab12", finished_unix_ms=1_796_420_400_000,
                               seat=0, place=1, sides=3, change=2.14),
              gw.RecordedMatch(match="matches/cd34", finished_unix_ms=1_796_420_000_000,
                               seat=1, place=2, sides=2, change=-0.8, private=True)]
    response = gw.GetPlayerRecordResponse(
        player=key("Ada"), display_name="Ada", kind=gw.PLAYER_KIND_NAME,
        records=[gw.GameRecord(game="murdercastle", variant="second-story", matches=2, wins=1,
                               rank=4, rating=gw.Rating(display=3.25), recent=recent)])
    lines = record_lines(response, {"murdercastle": get_game("murdercastle")}, "127.0.0.1:5")
    assert lines[0] == "The record of Ada:"
    assert lines[2] == ("Crimes in History: H. H. Holmes' Murder Castle (The 2nd Story): 3.2 — "
                        "2 rated matches, 1 win, #4")
    assert lines[3].endswith("won, 1st of 3 (+2.1): parlour replay matches/ab12 "
                             "--gateway 127.0.0.1:5")
    assert "2nd of 2 (\u22120.8, private table): parlour replay matches/cd34" in lines[4]
    none = gw.GetPlayerRecordResponse(player="players/bot:ismcts", kind=gw.PLAYER_KIND_BOT)
    assert record_lines(none, {}) == ["Clever bot has no rated match yet."]


def test_names_of_records_never_show_their_keys():
    """Issue 36 item 4: a person is their name, a bot its strategy as its seats call it
    (issue 43: "Greedy bot", the server's name, else engine.text.bot_name), the Automa the
    game's."""
    assert player_name(gw.PLAYER_KIND_PERSON, "players/p0a1b2c3d4e5", "Ada") == "Ada"
    assert player_name(gw.PLAYER_KIND_BOT, "players/bot:greedy", "Greedy bot") == "Greedy bot"
    assert player_name(gw.PLAYER_KIND_BOT, "players/bot:ismcts", "") == "Clever bot"
    assert player_name(gw.PLAYER_KIND_RULES, "players/game:automa", "") == "Automa (the game)"
    assert player_name(gw.PLAYER_KIND_NAME, key("x"), "") == "a player without a name"
    assert name_player("Ada Lovelace") == "players/name:Ada Lovelace"
