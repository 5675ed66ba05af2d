"""Murder Castle's modes as plugins (parlour.engine.modes): The 2nd Story, Automa, Play as
Holmes and the Castle Junction Cards (with Holmes' Ability Cards), in the order their setup
draws from the RNG. The standard rules call `MODES`' hooks instead of asking which is on."""

from __future__ import annotations

from parlour.engine.modes import Mode, Modes
from parlour.engine.rng import Rng
from parlour.games.murdercastle import (
    automa,
    castle_junction,
    holmes_abilities,
    holmes_cards,
    play_as_holmes,
    second_story,
)
from parlour.games.murdercastle.stack import Out, holmes_seat, pop, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Holmes' end of round in Play as Holmes: the Control Panel cube, then cards on the tiles.
HOLMES_ROUND_END = (pb.FRAME_KIND_PANEL_CUBE, pb.FRAME_KIND_ASSIGN_CARDS)


# -- The 2nd Story ------------------------------------------------------------------------
def _potion_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(potion=pb.PickPotion(spot=s)) for s in second_story.spots(state)]


def _potion(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    second_story.pick_potion(state, frame, action.potion.spot, out)


class SecondStory(Mode):
    """The 2nd Story: the Laboratory Shelf (its rooms, stairs and cards come through the
    piles of `second_story`)."""

    name = "second-story"
    decisions = {pb.FRAME_KIND_PICK_POTION: (_potion_options, _potion)}

    def active(self, options: pb.Options) -> bool:
        return second_story.playing(options)

    def setup(self, state: pb.State) -> None:
        second_story.new_shelf(state)

    def round_over(self, state: pb.State, out: Out) -> None:
        second_story.refill_shelf(state, out)

    def check(self, state: pb.State) -> None:
        second_story.check(state)

    check_off = check


# -- Automa ---------------------------------------------------------------------------------
class Automa(Mode):
    """Automa: one seat, the Automa and Destruction decks, the Automa card each round, Holmes
    winning with 5 strikes."""

    name = "automa"
    automatic = {pb.FRAME_KIND_AUTOMA: automa.step}

    def active(self, options: pb.Options) -> bool:
        return bool(options.automa)

    def seat_range(self, options: pb.Options) -> tuple[int, int]:
        return (1, 1)

    def setup(self, state: pb.State) -> None:
        automa.setup(state)

    def end_round(self, state: pb.State, frame: pb.Frame, out: Out) -> bool:
        if frame.bonus:
            return False
        frame.bonus = True  # after the movement card and any rampage (Rulebook: Automa Gameplay)
        automa.reveal(state, out)
        return True

    def game_over(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        if automa.holmes_wins(state):
            return (), "Holmes won: the Evidence Board holds all 5 Holmes Strikes!"
        return None

    def check(self, state: pb.State) -> None:
        automa.check(state)

    def check_off(self, state: pb.State) -> None:
        if not play_as_holmes.on(state):  # the only other mode with Fake Evidence
            automa.check_unused(state)


# -- Play as Holmes ---------------------------------------------------------------------------
def _cube_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return play_as_holmes.cube_options(state)


def _cube(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pop(state)
    play_as_holmes.place_cube(state, action.panel.slot, out)


def _assign_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return play_as_holmes.assign_options(state)


def _assign(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    if action.WhichOneof("kind") == "pass":
        out.append(public(pb.Event(passed=pb.Passed(seat=seat, frame=frame.kind))))
        pop(state)
    else:
        play_as_holmes.assign(state, action.assign.card, action.assign.tile, out)


def _walk_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return holmes_cards.walk_options(state, frame)


def _walk(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    holmes_cards.walk(state, frame, action, out)


class PlayAsHolmes(Mode):
    """Play as Holmes: the Holmes seat, the Control Panel, Holmes' Action Cards on the tiles,
    Holmes winning with the Tracker at 10."""

    name = "play-as-holmes"
    decisions = {
        pb.FRAME_KIND_PANEL_CUBE: (_cube_options, _cube),
        pb.FRAME_KIND_ASSIGN_CARDS: (_assign_options, _assign),
        pb.FRAME_KIND_HOLMES_WALK: (_walk_options, _walk),
    }
    automatic = {pb.FRAME_KIND_HOLMES_CARD: holmes_cards.step}

    def active(self, options: pb.Options) -> bool:
        return play_as_holmes.playing(options)

    def seat_range(self, options: pb.Options) -> tuple[int, int]:
        return play_as_holmes.seat_range()

    def setup(self, state: pb.State) -> None:
        play_as_holmes.setup(state)
        state.key = play_as_holmes.first_key(state)

    def end_round(self, state: pb.State, frame: pb.Frame, out: Out) -> bool:
        if frame.count >= len(HOLMES_ROUND_END):
            return False
        # "Once all Holmes' movement is completed": the cube, then the cards on the tiles
        frame.count += 1
        push(state, HOLMES_ROUND_END[frame.count - 1], holmes_seat(state))
        return True

    def game_over(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        if play_as_holmes.holmes_wins(state):
            return (holmes_seat(state),), "Holmes won: the Holmes Tracker reached 10"
        return None

    def view(self, state: pb.State, seat: int | None, view: pb.View) -> None:
        play_as_holmes.view_into(state, seat, view)

    def check(self, state: pb.State) -> None:
        play_as_holmes.check(state)


# -- Castle Junction Cards and Holmes' Ability Cards ----------------------------------------
class CastleJunction(Mode):
    """The Castle Junction Cards (objectives checked after every action, the discard vote)
    and Holmes' Ability Cards, which come with Play as Holmes."""

    name = "castle-junction"
    decisions = {**castle_junction.DECISIONS, **holmes_abilities.DECISIONS}
    automatic = dict(holmes_abilities.AUTOMATIC)

    def active(self, options: pb.Options) -> bool:
        return play_as_holmes.playing(options)

    def setup(self, state: pb.State) -> None:
        castle_junction.setup(state)
        holmes_abilities.setup(state, state.options.play_as_holmes.seat)

    def after_action(self, state: pb.State, out: Out) -> None:
        castle_junction.check(state, out)

    def view(self, state: pb.State, seat: int | None, view: pb.View) -> None:
        view.junction.CopyFrom(castle_junction.view(state, seat))
        view.junction.ability = holmes_abilities.seen(state, seat, holmes_seat(state))
        view.junction.ability_used = state.junction.ability_used

    def resample(self, state: pb.State, seat: int | None, rng: Rng) -> None:
        castle_junction.resample(state, seat, rng)
        holmes_abilities.resample(state, seat, holmes_seat(state), rng)

    def check(self, state: pb.State) -> None:
        castle_junction.check_conserved(state)

    check_off = check


MODES = Modes([SecondStory(), Automa(), PlayAsHolmes(), CastleJunction()])
