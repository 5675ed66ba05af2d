"""Play a game in-process, with no gRPC and no Redis: the embedder's entry point."""

from __future__ import annotations

from google.protobuf.message import Message

from parlour.engine import runtime
from parlour.engine.game import Decision, Emitted, Game, Outcome
from parlour.engine.registry import get_game
from parlour.engine.text import table_lines


class LocalMatch:
    """One match held in memory, with its action log for replay."""

    def __init__(
        self, game: Game | str, seats: int, seed: int = 0, options: Message | None = None
    ) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        self.options = options if options is not None else self.game.default_options(seats)
        self.seed = seed
        self.state = self.game.new_state(self.options, seats, seed)
        self.log: list[tuple[int, Message]] = []

    @property
    def pending(self) -> list[Decision]:
        """Who owes a decision now."""
        return runtime.pending(self.game, self.state)

    @property
    def outcome(self) -> Outcome | None:
        """Scores and winners once over."""
        return self.game.outcome(self.state)

    def legal_actions(self, seat: int) -> list[Message]:
        """The seat's legal actions now, in canonical order."""
        return runtime.legal_actions(self.game, self.state, seat)

    def act(self, seat: int, action: Message) -> list[Emitted]:
        """Apply an action (IllegalAction leaves the match unchanged)."""
        self.state, events = runtime.apply(self.game, self.state, seat, action)
        self.log.append((seat, action))
        return events

    def view(self, seat: int | None = None) -> Message:
        """What a seat (None: a spectator) sees."""
        return runtime.view(self.game, self.state, seat)

    def labels(self, seat: int) -> list[str]:
        """The seat's legal actions in words, in the order of `legal_actions`."""
        return self.game.label_actions(self.state, seat, self.legal_actions(seat))

    def table(self, seat: int | None = None) -> list[str]:
        """What a seat (None: a spectator) sees, in the rulebook's words, as lines (seats as
        "{seat:N}"; `parlour.engine.text.render` writes them out)."""
        return table_lines(self.game.describe_view(self.view(seat), seat), seat)
