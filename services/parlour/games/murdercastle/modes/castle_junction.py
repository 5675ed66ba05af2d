"""Castle Junction Cards, Play as Holmes (Rulebook: Play as Holmes: Castle Junction Cards;
Castle Junction Card Objectives; Castle Junction Card Actions).

A deck of objectives for the investigators, each card with a hidden reward on its back:
two lie face up, the top of the deck shows the objective coming up. Objectives are checked
after every applied action (`check`): the event objectives on the events the action
emitted, in order, the others on the position. A completed card goes to the Skeleton Key
holder, who may play its reward in the Event Card windows (`window_actions`, `play`); a
majority of investigators may vote a face-up objective away, at the price of a Holmes'
Movement Card (`propose`, `vote`). `CastleJunction`, the plugin, brings these cards and
Holmes' Ability Cards (`holmes_abilities`) into a Play as Holmes match, with their words.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import Emitted
from parlour.engine.rng import Rng, state_rng
from parlour.engine.text import seat as seat_name
from parlour.engine.text import subject
from parlour.games.murdercastle import holmes
from parlour.games.murdercastle.board import Castle, story, tile_of
from parlour.games.murdercastle.cubes import COLOURS, needed
from parlour.games.murdercastle.hooks import Points
from parlour.games.murdercastle.modes import holmes_abilities, play_as_holmes
from parlour.games.murdercastle.modes.components import (
    DISCARD,
    JUNCTION_DATA,
    KEEP,
    OBJECTIVES,
    cards,
    objective,
    reward,
)
from parlour.games.murdercastle.modes.names import (
    ability_name,
    junction_name,
    objective_name,
    slot_name,
)
from parlour.games.murdercastle.names import action_tile_name, ordinal
from parlour.games.murdercastle.stack import (
    Out,
    holmes_seat,
    investigators,
    key_order,
    pop,
    private,
    public,
    push,
)
from parlour.games.murdercastle.v1 import junction_pb2 as jpb
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Every story Castle Junction's first objective asks for: basement, main floor, 2nd Story.
STORIES = {-1, 0, 1}


# -- setup and dealing -------------------------------------------------------------------
def setup(state: pb.State) -> None:
    """Shuffle the deck objective side up and lay the top 2 cards face up."""
    junction = state.junction
    junction.deck.extend(sorted(cards()))
    with state_rng(state) as rng:
        rng.shuffle(junction.deck)
    junction.open.extend(junction.deck.pop() for _ in range(JUNCTION_DATA["face_up"]))


def deal(state: pb.State, slot: int, out: Out) -> None:
    """Turn the top card face up into an empty slot, reshuffling the discards if needed."""
    junction = state.junction
    reshuffled = False
    if not junction.deck and (junction.discard or junction.buried):
        junction.deck.extend([*junction.discard, *junction.buried])
        del junction.discard[:]
        del junction.buried[:]
        with state_rng(state) as rng:
            rng.shuffle(junction.deck)
        reshuffled = True
    card = junction.deck.pop() if junction.deck else 0
    junction.open[slot] = card
    if card:
        out.append(public(pb.Event(junction_dealt=jpb.JunctionDealt(
            slot=slot, objective=objective(card), reshuffled=reshuffled))))


# -- the objectives -------------------------------------------------------------------
def stories_occupied(state: pb.State, seats: Sequence[int]) -> set[int]:
    """The stories the seats stand on: -1 basement, 0 main floor, 1 the 2nd Story."""
    placed = Castle(state).placed
    return {story(placed[tile_of(state.players[s].place)].level) for s in seats}


def evidence_colour(state: pb.State, seats: Sequence[int]) -> int:
    """The first evidence colour not used yet that every seat has collected in full (0: none)."""
    need = needed(state)
    for colour in COLOURS:
        if colour not in state.junction.used_colours and all(
                state.players[s].board.counts[colour - 1] >= need for s in seats):
            return colour
    return 0


def has_ability(state: pb.State, seat: int) -> bool:
    """Whether a seat's character has an ability (the Hotel Guest has none)."""
    return state.players[seat].character != pb.CHARACTER_GUEST


def met_on_position(state: pb.State, seats: Sequence[int]) -> set[int]:
    """The objectives the position meets now (Rulebook: Castle Junction Card Objectives)."""
    junction = state.junction
    found = set()
    if STORIES <= stories_occupied(state, seats):
        found.add(jpb.JUNCTION_OBJECTIVE_LEVELS)
    with_ability = [s for s in seats if has_ability(state, s)]
    if (not junction.abilities_done and with_ability
            and all(state.players[s].ability_used for s in with_ability)):
        found.add(jpb.JUNCTION_OBJECTIVE_ABILITIES)
    if set(seats) <= set(junction.played_round):
        found.add(jpb.JUNCTION_OBJECTIVE_EVENT_ROUND)
    if evidence_colour(state, seats):
        found.add(jpb.JUNCTION_OBJECTIVE_EVIDENCE)
    if state.round >= 1 and len({state.players[s].place for s in seats}) == 1:
        found.add(jpb.JUNCTION_OBJECTIVE_SAME_ROOM)
    return found


def met_by_events(state: pb.State, out: Sequence[Emitted], seats: Sequence[int]) -> set[int]:
    """Follow the events an action emitted: Event Cards played this round (not Lola's mimic,
    not discards) and successful counters (Lola's mimic too); the round's tally restarts when
    the round ends."""
    junction = state.junction
    found = set()
    for emitted in out:
        event = emitted.event
        kind = event.WhichOneof("kind")
        if kind == "round_ended":
            del junction.played_round[:]
            del junction.proposed[:]
        elif kind == "played" and not event.played.mimic and event.played.seat in seats:
            if event.played.seat not in junction.played_round:
                junction.played_round.append(event.played.seat)
            if set(seats) <= set(junction.played_round):
                found.add(jpb.JUNCTION_OBJECTIVE_EVENT_ROUND)
        elif kind == "cancelled" and event.cancelled.card and event.cancelled.seat in seats:
            found.add(jpb.JUNCTION_OBJECTIVE_COUNTER)
    return found


def on(state: pb.State) -> bool:
    """Whether the match uses the Castle Junction Cards (Play as Holmes)."""
    return play_as_holmes.on(state)


def check(state: pb.State, out: Out) -> None:
    """After every applied action: complete each face-up objective met by the action's events
    or by the position; a completed card goes to the Skeleton Key holder and is replaced from
    the deck (a new card may be complete at once)."""
    if not on(state) or state.finished:
        return
    lapse(state, out)
    for slot, card in enumerate(state.junction.open):
        if not card:  # "There will always be 2 available Castle Junction Card objectives"
            deal(state, slot, out)
    seats = investigators(state)
    hits = met_by_events(state, list(out), seats)
    while True:
        met = hits | met_on_position(state, seats)
        slot = next((i for i, card in enumerate(state.junction.open)
                     if card and objective(card) in met), None)
        if slot is None:
            return
        hits.discard(objective(state.junction.open[slot]))
        complete(state, slot, seats, out)


def complete(state: pb.State, slot: int, seats: Sequence[int], out: Out) -> None:
    """The Skeleton Key holder keeps the card; its reward is seen; the slot is refilled."""
    junction = state.junction
    card = junction.open[slot]
    if objective(card) == jpb.JUNCTION_OBJECTIVE_ABILITIES:
        junction.abilities_done = True
    elif objective(card) == jpb.JUNCTION_OBJECTIVE_EVIDENCE:
        junction.used_colours.append(evidence_colour(state, seats))
    junction.kept.add(seat=state.key, card=card)
    out.append(public(pb.Event(junction_completed=jpb.JunctionCompleted(
        seat=state.key, card=card, slot=slot))))
    deal(state, slot, out)


def held(state: pb.State, seat: int) -> list[int]:
    """The completed cards a seat keeps."""
    return sorted(k.card for k in state.junction.kept if k.seat == seat)


def blockers(state: pb.State) -> list[int]:
    """Seats keeping a card that blocks Holmes from entering a room, in Skeleton Key order."""
    return [s for s in key_order(state) if any(
        reward(c) == jpb.JUNCTION_REWARD_BLOCK_HOLMES for c in held(state, s))]


# -- playing a completed card --------------------------------------------------------------
def playable(state: pb.State, card: int, place: int) -> bool:
    """Whether a kept card's reward can be played now: blocking Holmes only in the window
    opened by Holmes entering a room (`place`), while he is still there."""
    kind = reward(card)
    if kind == jpb.JUNCTION_REWARD_BLOCK_HOLMES:
        return bool(place) and state.holmes == place
    if kind == jpb.JUNCTION_REWARD_REMOVE_CUBE:
        return bool(state.panel)
    if kind == jpb.JUNCTION_REWARD_NO_MOVEMENT:
        return not state.junction.skip_movement
    return bool(state.tile_cards)


def window_actions(state: pb.State, seat: int, place: int) -> list[pb.Action]:
    """An Event Card window's Castle Junction choices for an investigator: each playable reward
    kind kept (one card per kind), and, between phases (`place` 0; else the window answers
    Holmes entering `place`), a proposal to discard."""
    if not on(state) or seat == holmes_seat(state):
        return []
    found: dict[int, int] = {}
    for card in held(state, seat):
        if reward(card) not in found and playable(state, card, place):
            found[reward(card)] = card
    plays = [pb.Action(junction=jpb.PlayJunction(card=c)) for c in sorted(found.values())]
    return plays if place else [*plays, *proposals(state, seat)]


def play(state: pb.State, seat: int, card: int, out: Out) -> None:
    """Play a kept card: its reward at once, or after choosing what it removes."""
    junction = state.junction
    index = next(i for i, k in enumerate(junction.kept) if k.seat == seat and k.card == card)
    del junction.kept[index]
    junction.discard.append(card)
    out.append(public(pb.Event(junction_played=jpb.JunctionPlayed(seat=seat, card=card))))
    kind = reward(card)
    if kind == jpb.JUNCTION_REWARD_BLOCK_HOLMES:
        _block(state, out)
    elif kind == jpb.JUNCTION_REWARD_NO_MOVEMENT:
        junction.skip_movement = True
    else:
        push(state, pb.FRAME_KIND_JUNCTION_TARGET, seat, card=card)


def _block(state: pb.State, out: Out) -> None:
    """Holmes returns to the room he came from; nobody there is struck again, nobody in the
    room he left is struck at all."""
    entered = state.holmes
    for seat in key_order(state):
        if state.players[seat].place == entered and not state.players[seat].partnered:
            out.append(public(pb.Event(spared=pb.Spared(seat=seat, reason="Castle Junction"))))
    state.holmes = state.junction.prior
    out.append(public(pb.Event(holmes_moved=pb.HolmesMoved(from_place=entered,
                                                           to_place=state.holmes))))


def target_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    """The Control Panel cubes, or the Action Tiles carrying a Holmes' Action Card."""
    if reward(frame.card) == jpb.JUNCTION_REWARD_REMOVE_CUBE:
        return [pb.Action(junction_target=jpb.JunctionTarget(slot=s)) for s in sorted(state.panel)]
    return [pb.Action(junction_target=jpb.JunctionTarget(tile=t.tile))
            for t in sorted(state.tile_cards, key=lambda t: t.tile)]


def target(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    """Remove the chosen cube (its card is lost from the next round unless the end-of-round
    cube goes back there), or take the chosen tile's card back to Holmes' supply, unseen, or
    out of the game, face up."""
    pop(state)
    kind = reward(frame.card)
    chosen = action.junction_target
    removed = jpb.JunctionRemoved(reward=kind, slot=chosen.slot, tile=chosen.tile)
    if kind == jpb.JUNCTION_REWARD_REMOVE_CUBE:
        state.panel.remove(chosen.slot)
        state.fake_supply += 1
    else:
        card = play_as_holmes.take_from_tile(state, chosen.tile)
        if kind == jpb.JUNCTION_REWARD_BOX_CARD:
            state.holmes_boxed.append(card)
            removed.card = card
        else:
            state.holmes_supply.append(card)
    out.append(public(pb.Event(junction_removed=removed)))


def lapse(state: pb.State, out: Out) -> None:
    """Cards whose Control Panel cube was removed go back to the left of the panel: from the
    supply at once, from an Action Tile once the round's cube has been placed (elsewhere) or
    the round has ended ("will not be available to Holmes beginning the next round unless
    Holmes replaces the lost action with the new, end of round cube")."""
    unlocked = play_as_holmes.unlocked_by_panel(state)
    state.holmes_supply[:] = [c for c in state.holmes_supply if c in unlocked]
    if any(e.event.WhichOneof("kind") in ("panel", "round_ended") for e in out):
        for tile in [t.tile for t in state.tile_cards if t.card not in unlocked]:
            play_as_holmes.take_from_tile(state, tile)


# -- discarding a face-up objective by majority ---------------------------------------------
def proposals(state: pb.State, seat: int) -> list[pb.Action]:
    """ProposeDiscard for each face-up objective, by any investigator "at any point of the
    game", except one whose proposal was refused this round (no repeated refused votes)."""
    if seat in state.junction.proposed or any(
            f.kind == pb.FRAME_KIND_JUNCTION_VOTE for f in state.frames):
        return []
    return [pb.Action(propose=jpb.ProposeDiscard(slot=i))
            for i, card in enumerate(state.junction.open) if card]


def propose(state: pb.State, seat: int, slot: int, out: Out) -> None:
    """Open a simultaneous vote of every investigator on discarding the objective in a slot."""
    state.junction.proposed.append(seat)
    out.append(public(pb.Event(proposed=jpb.DiscardProposed(seat=seat, slot=slot))))
    push(state, pb.FRAME_KIND_JUNCTION_VOTE, seat, seats=investigators(state), target=slot)


def vote_pending(state: pb.State, frame: pb.Frame) -> list[int]:
    """Voters who have not voted yet (all of them decide at once)."""
    voted = {*state.junction.yes, *state.junction.no}
    return [s for s in frame.seats if s not in voted]


def vote_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    """Discard or keep."""
    return [pb.Action(vote=jpb.Vote(discard=True)), pb.Action(vote=jpb.Vote(discard=False))]


def _vote(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    """A vote; a discard costs "an immediate draw of 1 card from the Holmes' Movement Card deck
    with Holmes moving accordingly" (the Holmes seat choosing)."""
    if vote(state, frame, seat, action.vote.discard, out):
        holmes.reveal(state, holmes_seat(state), False, out)


def vote(state: pb.State, frame: pb.Frame, seat: int, discard: bool, out: Out) -> bool:
    """Record a secret vote; once all have voted, count: more than half discarding discards
    the card (a tie is no majority) and the top card replaces it. True when discarded (the
    caller then draws the penalty Holmes' Movement Card)."""
    junction = state.junction
    (junction.yes if discard else junction.no).append(seat)
    out.extend(private({seat}, pb.Event(voted=jpb.VoteCast(seat=seat,
                                                           vote=DISCARD if discard else KEEP)),
                       pb.Event(voted=jpb.VoteCast(seat=seat))))
    if vote_pending(state, frame):
        return False
    yes, no = sorted(junction.yes), sorted(junction.no)
    del junction.yes[:]
    del junction.no[:]
    junction.last_yes[:] = yes
    junction.last_no[:] = no
    slot = frame.target
    discarded = 2 * len(yes) > len(frame.seats) and bool(junction.open[slot])
    pop(state)
    out.append(public(pb.Event(counted=jpb.VoteCounted(yes=yes, no=no, discarded=discarded,
                                                       slot=slot))))
    if discarded:  # only a refused proposal holds its proposer back this round
        junction.proposed.remove(frame.seat)
        junction.buried.append(junction.open[slot])
        deal(state, slot, out)
    return discarded


# -- hidden information -----------------------------------------------------------------
def view(state: pb.State, seat: int | None) -> jpb.JunctionView:
    """Objectives face up and on top of the deck; rewards only of completed cards; who voted,
    and the viewer's own vote."""
    junction = state.junction
    out = jpb.JunctionView(
        next=objective(junction.deck[-1]) if junction.deck else 0,
        deck_size=len(junction.deck), buried=len(junction.buried),
        abilities_done=junction.abilities_done, skip_movement=junction.skip_movement,
    )
    out.open.extend(objective(c) for c in junction.open)
    out.discard.extend(junction.discard)
    out.kept.extend(junction.kept)
    out.played_round.extend(junction.played_round)
    out.used_colours.extend(junction.used_colours)
    out.proposed.extend(junction.proposed)
    out.voted.extend(sorted([*junction.yes, *junction.no]))
    out.last_yes.extend(junction.last_yes)
    out.last_no.extend(junction.last_no)
    if seat in junction.yes:
        out.my_vote = DISCARD
    elif seat in junction.no:
        out.my_vote = KEEP
    return out


def resample(state: pb.State, seat: int | None, rng: Rng) -> None:
    """Shuffle what nobody sees, in place: the deck below its top card, then the cards among
    all hidden places that show the same objective (the rewards behind them); other seats'
    secret votes."""
    junction = state.junction
    below = list(junction.deck[:-1])
    rng.shuffle(below)
    junction.deck[:-1] = below
    zones = (junction.deck, junction.open, junction.buried)
    hidden = [(zone, i) for zone in zones for i, card in enumerate(zone) if card]
    for face in OBJECTIVES.values():
        spots = [(zone, i) for zone, i in hidden if objective(zone[i]) == face]
        ids = [zone[i] for zone, i in spots]
        rng.shuffle(ids)
        for (zone, i), card in zip(spots, ids, strict=True):
            zone[i] = card
    voters = [s for s in sorted([*junction.yes, *junction.no]) if s != seat]
    mine = [s for s in junction.yes if s == seat], [s for s in junction.no if s == seat]
    del junction.yes[:]
    del junction.no[:]
    junction.yes.extend(mine[0])
    junction.no.extend(mine[1])
    for voter in voters:
        (junction.yes if rng.below(2) else junction.no).append(voter)


def check_conserved(state: pb.State) -> None:
    """Every Castle Junction Card is in exactly one place."""
    junction = state.junction
    every = [*junction.deck, *junction.discard, *junction.buried, *(k.card for k in junction.kept)]
    every += [c for c in junction.open if c]
    if not junction.open:
        assert not every, "Castle Junction Cards outside Play as Holmes"
        return
    assert sorted(every) == sorted(cards()), "Castle Junction Cards not conserved"


DECISIONS = {
    pb.FRAME_KIND_JUNCTION_VOTE: (vote_options, _vote),
    pb.FRAME_KIND_JUNCTION_TARGET: (target_options, target),
}


#: Refusal reasons of the mode's action kinds (`hooks.Points.reasons`).
REASONS = {
    "junction": "JUNCTION_CARD_NOT_PLAYABLE", "propose": "PROPOSAL_NOT_ALLOWED",
    "vote": "NOT_VOTING_NOW", "choose_ability": "ABILITY_NOT_OFFERED",
    "holmes_ability": "HOLMES_ABILITY_NOT_AVAILABLE", "junction_target": "TARGET_NOT_OFFERED",
}


# -- words ---------------------------------------------------------------------------------
ACTION_WORDS = {
    "junction": lambda body: f"play the Castle Junction Card {junction_name(body.card)}",
    "propose": lambda body: (f"propose discarding the {ordinal(body.slot + 1)} Castle Junction "
                             "objective"),
    "vote": lambda body: "vote to discard" if body.discard else "vote to keep",
    "choose_ability": lambda body: f"keep {ability_name(body.ability)}",
    "holmes_ability": lambda body: "play Holmes' Ability Card",
    "junction_target": lambda body: (f"remove Holmes' cube from {slot_name(body.slot)}"
                                     if body.slot else
                                     f"take the Holmes' Action Card off "
                                     f"{action_tile_name(body.tile)}"),
}


def _objective(view: pb.View, slot: int) -> str:
    face_up = view.junction.open
    return objective_name(face_up[slot]) if slot < len(face_up) else "an objective"


def _vote_label(view: pb.View, body: jpb.Vote) -> str:
    top = view.frames[-1] if view.frames else None
    what = _objective(view, top.target) if top is not None else "the objective"
    return f"vote to {'discard' if body.discard else 'keep'} “{what}”"


ACTION_LABELS = {
    "propose": lambda view, body: (f"propose discarding the {ordinal(body.slot + 1)} objective, "
                                   f"“{_objective(view, body.slot)}”"),
    "vote": _vote_label,
    "holmes_ability": lambda view, body: (f"play {ability_name(view.junction.ability)}"
                                          if view.junction.ability
                                          else ACTION_WORDS["holmes_ability"](body)),
}
EVENT_WORDS = {
    "junction_completed": lambda e: (f"{seat_name(e.seat)} kept the Castle Junction Card "
                                     f"{junction_name(e.card)} (objective completed)"),
    "junction_dealt": lambda e: ("a Castle Junction objective was turned face up: "
                                 f"{objective_name(e.objective)}"),
    "junction_played": lambda e: (f"{seat_name(e.seat)} played the Castle Junction Card "
                                  f"{junction_name(e.card)}"),
    "proposed": lambda e: (f"{seat_name(e.seat)} proposed discarding the {ordinal(e.slot + 1)} "
                           "Castle Junction objective"),
    "voted": lambda e: (f"{seat_name(e.seat)} voted"
                        + {DISCARD: " to discard", KEEP: " to keep"}.get(e.vote, "")),
    "counted": lambda e: (f"{len(e.yes)} to {len(e.no)}: the Castle Junction objective was "
                          + ("discarded" if e.discarded else "kept")),
    "ability_chosen": lambda e: (f"Holmes kept {ability_name(e.ability)}" if e.ability
                                 else "Holmes chose his Ability Card"),
    "holmes_ability": lambda e: f"Holmes played {ability_name(e.ability)}",
    "junction_removed": lambda e: ("a Castle Junction Card removed "
                                   f"{'a cube' if e.slot else 'a card'} from Holmes"),
}
PROMPTS = {
    pb.FRAME_KIND_CHOOSE_HOLMES_ABILITY: "As Holmes, keep one of your 3 Ability Cards, "
                                         "secretly.",
    pb.FRAME_KIND_JUNCTION_VOTE: "Castle Junction: vote secretly on discarding the "
                                 "objective proposed; the votes are shown all at once.",
    pb.FRAME_KIND_JUNCTION_TARGET: "Your Castle Junction Card takes a piece from Holmes: "
                                   "choose the Control Panel cube or the Holmes' Action "
                                   "Card on an Action Tile to remove.",
}


def table_lines(view: pb.View) -> list:
    """The table's Castle Junction Cards: the objectives, the cards kept, the votes."""
    junction = view.junction
    lines = [f"Objective {i + 1}: {objective_name(o)}" for i, o in enumerate(junction.open)]
    if junction.next:
        lines.append(f"Coming up: {objective_name(junction.next)}")
    lines += [f"{subject(k.seat, 'keeps', 'keep')} {junction_name(k.card)}"
              for k in junction.kept]
    if junction.voted:
        lines.append("Voted so far: " + ", ".join(seat_name(s) for s in junction.voted))
    if junction.my_vote:
        lines.append(f"Your vote: {'discard' if junction.my_vote == DISCARD else 'keep'}")
    if junction.last_yes or junction.last_no:
        lines.append("Last vote: discard " + (", ".join(seat_name(s) for s in junction.last_yes)
                                              or "nobody") + "; keep "
                     + (", ".join(seat_name(s) for s in junction.last_no) or "nobody"))
    if junction.proposed:
        lines.append("Refused proposers this round: "
                     + ", ".join(seat_name(s) for s in junction.proposed))
    return lines


# -- the plugin ------------------------------------------------------------------------------
class CastleJunction(Points):
    """The Castle Junction Cards (objectives checked after every action, the discard vote)
    and Holmes' Ability Cards, which come with Play as Holmes."""

    name = "castle-junction"
    reason_texts = {
        "ABILITY_NOT_OFFERED": "That Holmes' Ability Card is not one of the three offered.",
        "HOLMES_ABILITY_NOT_AVAILABLE": "Holmes' Ability Card is played, or has no room to "
                                        "aim at.",
        "JUNCTION_CARD_NOT_PLAYABLE": "That Castle Junction Card is not yours or cannot be "
                                      "played now.",
        "NOT_VOTING_NOW": "There is no vote on a Castle Junction objective for you now.",
        "PROPOSAL_NOT_ALLOWED": "Your Castle Junction discard was refused this round, a vote "
                                "is under way, or that slot is empty.",
        "TARGET_NOT_OFFERED": "That cube or Action Tile is not one the Castle Junction Card can "
                              "clear.",
    }
    decision_texts = {
        "choose_holmes_ability": "Play as Holmes: Holmes secretly keeps one of his 3 Ability "
                                 "Cards.",
        "junction_vote": "Play as Holmes: vote, secretly and all at once, on discarding a "
                         "face-up Castle Junction objective.",
        "junction_target": "Play as Holmes: choose the Control Panel cube or the Action Tile's "
                           "card your Castle Junction Card removes.",
        "holmes_ability": "Play as Holmes: Holmes' Ability Card resolves (automatic between his "
                          "choices).",
    }
    decisions = {**DECISIONS, **holmes_abilities.DECISIONS}
    automatic = dict(holmes_abilities.AUTOMATIC)
    public_choices = frozenset({pb.FRAME_KIND_JUNCTION_TARGET})
    reasons = REASONS
    prompts = PROMPTS
    action_words = ACTION_WORDS
    action_labels = ACTION_LABELS
    event_words = EVENT_WORDS
    copies = ("junction",)

    def active(self, options: pb.Options) -> bool:
        return play_as_holmes.playing(options)

    def setup(self, state: pb.State) -> None:
        setup(state)
        holmes_abilities.setup(state, state.options.play_as_holmes.seat)

    def after_action(self, state: pb.State, out: Out) -> None:
        check(state, out)

    def holmes_leaves(self, state: pb.State) -> None:
        if state.junction.open:
            state.junction.prior = state.holmes  # where a block sends him back

    def pending_seats(self, state: pb.State, frame: pb.Frame) -> list[int] | None:
        if frame.kind == pb.FRAME_KIND_JUNCTION_VOTE:
            return vote_pending(state, frame)
        return None

    def window_joiners(self, state: pb.State) -> list[int]:
        return blockers(state)

    def window_actions(self, state: pb.State, seat: int, place: int) -> list[pb.Action]:
        return window_actions(state, seat, place)

    def holmes_window_actions(self, state: pb.State) -> list[pb.Action]:
        return holmes_abilities.use_actions(state, investigators(state))

    def holmes_in_window(self, state: pb.State) -> bool:
        return holmes_abilities.may_use(state)

    def window_seats(self, state: pb.State) -> list[int]:
        return holmes_abilities.window_seats(state)

    def window_act(self, state: pb.State, seat: int, action: pb.Action, out: Out) -> None:
        kind = action.WhichOneof("kind")
        if kind == "junction":
            play(state, seat, action.junction.card, out)
        elif kind == "propose":
            propose(state, seat, action.propose.slot, out)
        else:
            holmes_abilities.use(state, seat, out)

    def view(self, state: pb.State, seat: int | None, into: pb.View) -> None:
        into.junction.CopyFrom(view(state, seat))
        into.junction.ability = holmes_abilities.seen(state, seat, holmes_seat(state))
        into.junction.ability_used = state.junction.ability_used

    def resample(self, state: pb.State, seat: int | None, rng: Rng) -> None:
        resample(state, seat, rng)
        holmes_abilities.resample(state, seat, holmes_seat(state), rng)

    def table(self, view: pb.View, me: int | None) -> list[tuple[str, list]]:
        return [("Castle Junction Cards", table_lines(view))]

    def check(self, state: pb.State) -> None:
        check_conserved(state)

    check_off = check
