"""What several `parlour` commands share (no command itself): the one-line mistakes,
argument types, the local stack's start, and the gateway address."""

from __future__ import annotations

import argparse
from importlib.metadata import PackageNotFoundError, version

from parlour.engine.registry import known_game, playable_games

#: Where `parlour up` serves the gateway unless --address says otherwise (docs use it).
DEFAULT_GATEWAY = "127.0.0.1:50051"


class UsageError(Exception):
    """A mistake in the command line or its surroundings: one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse with its mistakes on one line (and exit status 2, as argparse has)."""

    def error(self, message: str) -> None:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parlour_version() -> str:
    try:
        return version("parlour")
    except PackageNotFoundError:  # pragma: no cover - running from a bare tree
        return "unknown"


def chosen_games(names: list[str]) -> list[str]:
    """The named games (each checked), or every playable game."""
    return [known_game(n).name for n in names] or [g.name for g in playable_games()]


class started:
    """Start a LocalStack; a server that cannot start ends the command with its reason."""

    def __init__(self, stack) -> None:
        self.stack = stack

    def __enter__(self):
        try:
            return self.stack.start()
        except RuntimeError as error:
            raise UsageError(f"could not start the stack: {error}") from None

    def __exit__(self, *exc: object) -> None:
        self.stack.stop()


def gateway_target(text: str) -> str:
    """A gateway address, host:port."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not host:port")
    return text


def gateway_address(args: argparse.Namespace, required: bool = True) -> str | None:
    """--gateway, else PARLOUR_GATEWAY (checked); UsageError when `required` and neither."""
    address = args.gateway
    if not address:
        from parlour.settings import HostSettings, load

        address = load(HostSettings).gateway
    if not address:
        if required:
            raise UsageError("give --gateway HOST:PORT or set PARLOUR_GATEWAY "
                             f"(`parlour up` serves one on {DEFAULT_GATEWAY})")
        return None
    try:
        return gateway_target(address)
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"PARLOUR_GATEWAY: {error}") from None


def interrupt(*_: object) -> None:
    """A signal handler stopping the command as Ctrl-C does."""
    raise KeyboardInterrupt


def nonnegative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
