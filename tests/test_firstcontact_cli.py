"""Issue 26 (players and the CLI): every command answers bad input with one line naming what
is wrong and exit status 2, at once: never a traceback, never a wait on seats nobody fills."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from parlour.commands._common import UsageError
from parlour.commands.play import table_seats
from parlour.engine.registry import get_game
from parlour.store.server import free_port

HOLMES = json.dumps({"playAsHolmes": {"seat": 0}})


def parlour(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "PARLOUR_GATEWAY"}
    return subprocess.run(
        [sys.executable, "-m", "parlour.cli", *argv], capture_output=True, text=True,
        timeout=30, env={**environment, **(env or {})}, stdin=subprocess.DEVNULL,
    )


def one_line(done: subprocess.CompletedProcess, *says: str) -> None:
    """Exit status 2, one stderr line holding every `says`, no traceback, nothing started."""
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    for text in says:
        assert text in done.stderr, done.stderr
    assert "starting a local stack" not in done.stdout


def test_play_unknown_game():
    one_line(parlour("play", "chess", "--bots", "2"), "unknown game 'chess'", "isayholmes")


def test_play_seats_the_game_does_not_take():
    one_line(parlour("play", "isayholmes", "--seats", "1"),
             "I Say, Holmes! takes 3 to 8 seats, not --seats 1")


def test_play_gateway_not_running():
    address = f"127.0.0.1:{free_port()}"
    one_line(parlour("play", "isayholmes", "--bots", "2", "--gateway", address),
             f"no gateway answers at {address}", "UNAVAILABLE")


def test_play_gateway_host_that_does_not_resolve():
    one_line(parlour("play", "isayholmes", "--bots", "2", "--gateway",
                     "no-such-host.invalid:50051"),
             "the gateway host 'no-such-host.invalid' does not resolve")


def test_play_gateway_address_that_is_not_host_port():
    one_line(parlour("play", "isayholmes", "--bots", "2", "--gateway", "nowhere"),
             "'nowhere' is not host:port")
    one_line(parlour("play", "isayholmes", "--bots", "2", env={"PARLOUR_GATEWAY": "nowhere"}),
             "PARLOUR_GATEWAY: 'nowhere' is not host:port")


def test_play_more_bots_than_the_game_seats():
    """I Say, Holmes! is for 3 to 8 players: 9 bots and you are 10, not clamped to 8."""
    one_line(parlour("play", "isayholmes", "--bots", "9"),
             "takes 3 to 8 seats: you and 9 bots make 10; give --bots 2 to 7")


def test_play_clash_of_minds_takes_one_bot():
    """Clash of Minds is for two players: --bots 3 is refused, not clamped to 1."""
    one_line(parlour("play", "clashofminds", "--bots", "3"),
             "takes 2 seats: you and 3 bots make 4; give --bots 1")


def test_play_negative_bots():
    one_line(parlour("play", "isayholmes", "--bots", "-1"), "--bots: must be 0 or more, not -1")


def test_play_as_holmes_with_too_few_bots():
    """Play as Holmes takes 4 to 7 seats (Holmes and 3 to 6 investigators): Holmes and one
    bot would wait for ever on two empty seats."""
    one_line(parlour("play", "murdercastle", "--bots", "1", "--options", HOLMES),
             "with these --options takes 4 to 7 seats", "give --bots 3 to 6")


def test_play_options_that_are_not_the_games():
    one_line(parlour("play", "murdercastle", "--bots", "1", "--options", '{"nope": 1}'),
             "--options is not murdercastle Options JSON")


def test_play_more_bots_than_the_seats_asked_for():
    one_line(parlour("play", "isayholmes", "--seats", "3", "--bots", "3"),
             "--bots 3 leaves you no seat of 3")


def test_play_with_nothing_to_play():
    one_line(parlour("play"), "name a GAME, or --join MATCH, or --watch MATCH")


def test_join_and_watch_check_the_gateway_too():
    address = f"127.0.0.1:{free_port()}"
    one_line(parlour("play", "--join", "matches/x", "--gateway", address), "no gateway answers")
    one_line(parlour("play", "--watch", "matches/x"), "give --gateway HOST:PORT")


@pytest.mark.parametrize("command", [["bots", "matches/x"], ["replay", "matches/x"], ["demo"]])
def test_gateway_commands_with_no_gateway_running(command):
    address = f"127.0.0.1:{free_port()}"
    one_line(parlour(*command, "--gateway", address), f"no gateway answers at {address}")


@pytest.mark.parametrize("command", [["describe", "chess"], ["simulate", "chess"],
                                     ["serve-rules", "chess"], ["up", "chess"],
                                     ["demo", "chess"]])
def test_every_command_names_an_unknown_game(command):
    one_line(parlour(*command), "unknown game 'chess'; known: ")


def test_up_on_a_taken_port():
    """`parlour up` serves on 127.0.0.1:50051 unless --address says otherwise; a taken port
    is one line saying which and how to choose another (checked before anything starts)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        one_line(parlour("up", "tinycards", "--address", address),
                 f"{address} is not free", "give --address HOST:PORT")


def test_up_on_a_taken_web_port_suggests_a_port():
    """Issue 43: a taken --web-port is answered with a value --web-port accepts (a port,
    never HOST:PORT, which the flag refuses)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = parlour("up", "tinycards", "--address", "127.0.0.1:0", "--web-port", str(port))
        one_line(done, f"127.0.0.1:{port} is not free",
                 f"give --web-port PORT, e.g. --web-port {port + 1}")
    assert "HOST:PORT" not in done.stderr


def test_argparse_mistakes_are_one_line_too():
    one_line(parlour("play", "isayholmes", "--bots", "two"), "argument --bots")
    one_line(parlour("nonsense"), "invalid choice: 'nonsense'")


def test_verify_a_file_that_is_not_there(tmp_path):
    one_line(parlour("verify", str(tmp_path / "none.json")), "cannot read", "none.json")


@pytest.mark.parametrize(
    ("game", "options", "seats", "bots", "table"),
    [
        ("isayholmes", None, None, 2, 3),
        ("isayholmes", None, 5, 2, 5),
        ("clashofminds", None, None, 1, 2),
        ("murdercastle", HOLMES, None, 3, 4),
        ("murdercastle", '{"automa": "AUTOMA_LEVEL_MENACING"}', None, 0, 1),
    ],
)
def test_the_table_is_you_and_the_bots_unless_seats_say_more(game, options, seats, bots, table):
    """What the README's commands ask for is accepted: the seats are you and the bots (or
    --seats, the rest for players who --join)."""
    from google.protobuf import json_format

    rules = get_game(game)
    parsed = json_format.Parse(options, rules.options_type()) if options else None
    assert table_seats(rules, parsed, seats, bots) == table


def test_the_table_refuses_what_no_one_fills():
    with pytest.raises(UsageError, match="you and 0 bots make 1"):
        table_seats(get_game("isayholmes"), None, None, 0)
