"""The Additional Game Mode "Agent Cards Included", switched on by `Options.agents`, above the
standard rules: it reaches them only through the rule points of `hooks` (parlour.engine.modes).
`play` holds its rules, `words` its words, `cards` its cards; `game` imports this package,
which installs the mode."""

from __future__ import annotations

from parlour.engine.game import Emitted, Variant
from parlour.engine.rng import Rng
from parlour.games.clashofminds.agents import play
from parlour.games.clashofminds.agents.cards import AGENTS, DECKS
from parlour.games.clashofminds.agents.words import WORDS, player_lines
from parlour.games.clashofminds.hooks import MODES, Points, Source
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

TURN_MOVES = {"activate_agent": play.activate_agent}
SUPPORT_MOVES = {**TURN_MOVES, "add_support": play.add_support}


class Agents(Points):
    """Agent Cards Included: one Agent in play per player."""

    name = "agents"
    phases = {pb.PHASE_AGENTS: ("keep_or_replace_agent", play.keep_or_replace)}
    moves = {
        pb.PHASE_AGENTS: {"keep_agent": play.keep_agent, "replace_agent": play.replace_agent},
        pb.PHASE_COURSE: SUPPORT_MOVES,
        pb.PHASE_FINAL_PLACEMENT: TURN_MOVES,
        pb.PHASE_FINAL_REVEAL: SUPPORT_MOVES,
    }
    sources = {pb.EFFECT_SOURCE_AGENT: Source(AGENTS, play.TARGETS, play.RESOLVERS)}
    words = WORDS

    def active(self, options: pb.Options) -> bool:
        return options.agents

    def variants(self) -> list[Variant]:
        return [Variant("agents", "Agent Cards Included", pb.Options(agents=True))]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(agents=True), 2)]

    def deal(self, player: pb.Player, seat: int, rng: Rng) -> None:
        player.agent_deck.extend(DECKS[seat])
        rng.shuffle(player.agent_deck)

    def after_contacts(self, state: pb.State) -> list[Emitted]:
        return play.continue_agents(state, 0)

    def turn_actions(self, state: pb.State, seat: int) -> list[pb.Action]:
        return play.activation(state, seat)

    def support_actions(self, state: pb.State, seat: int, card: int) -> list[pb.Action]:
        return play.support_actions(state, seat, card)

    def supports(self, player: pb.Player) -> list[int]:
        return player.agent.supports

    def after_conclusion(self, state: pb.State) -> list[Emitted]:
        return play.lestrade(state)

    def archive(self, state: pb.State, seat: int) -> list[Emitted]:
        return play.discard_activated(state, seat)

    def bonus(self, table: pb.State | pb.View, thread: int, seat: int) -> int:
        return play.person_bonus(table, thread, seat)

    def catalogue(self, message: pb.Catalogue) -> None:
        message.agents.extend(
            pb.AgentInfo(id=a.id, name=a.name, owner=a.owner, cost=a.cost, text=a.text)
            for a in AGENTS.values())

    def player_lines(self, view: pb.View, n: int, viewer: int | None) -> list:
        return player_lines(view, n, viewer)

    def view(self, state: pb.State, seat: int | None, view: pb.View) -> None:
        """Each player's Agent Deck size and discards; an Agent face down, one just drawn
        and the Supports under it only in its owner's view; the owner's own Agent Deck."""
        if seat is not None:
            view.own_agent_deck.extend(sorted(state.players[seat].agent_deck))
        for owner, (player, shown) in enumerate(zip(state.players, view.players, strict=True)):
            shown.agent_deck_size = len(player.agent_deck)
            shown.agent_discard.extend(player.agent_discard)
            shown.agent.CopyFrom(player.agent)
            if owner == seat:
                shown.drawn_agent = player.drawn_agent
                continue
            if not player.agent.activated:
                shown.agent.agent = 0
            shown.agent.supports[:] = [0] * len(player.agent.supports)

    def shuffle_piles(self, player: pb.Player, rng: Rng) -> None:
        rng.shuffle(player.agent_deck)

    def redeal(self, player: pb.Player, rng: Rng) -> None:
        """An unactivated Agent and one just drawn trade places with the Agent Deck."""
        hidden = player.agent.in_play and not player.agent.activated
        pool = [*player.agent_deck, *([player.agent.agent] if hidden else [])]
        pool += [player.drawn_agent] if player.drawn_agent else []
        rng.shuffle(pool)
        if hidden:
            player.agent.agent = pool.pop()
        if player.drawn_agent:
            player.drawn_agent = pool.pop()
        player.agent_deck[:] = pool

    def check(self, state: pb.State) -> None:
        for seat, player in enumerate(state.players):
            assert sorted(_agents(player)) == sorted(DECKS[seat]), f"seat {seat} Agents"

    def check_off(self, state: pb.State) -> None:
        for seat, player in enumerate(state.players):
            assert not _agents(player), f"seat {seat} Agents"


def _agents(player: pb.Player) -> list[int]:
    """Every Agent Card a player holds, wherever it is."""
    agents = [*player.agent_deck, *player.agent_discard]
    agents += [player.agent.agent] if player.agent.in_play else []
    return agents + ([player.drawn_agent] if player.drawn_agent else [])



MODES.install([Agents()])
