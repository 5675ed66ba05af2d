"""Holmes: movement cards, rampages, Lights Out, encounters and Holmes Strikes!."""

from __future__ import annotations

from parlour.engine.rng import state_rng
from parlour.games.murdercastle.board import Castle, place_of, tile_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import total
from parlour.games.murdercastle.hooks import rules
from parlour.games.murdercastle.stack import (
    NOBODY,
    Out,
    below,
    key_order,
    pop,
    public,
    push,
    top,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def _draw_card(state: pb.State, seat: int, out: Out) -> int:
    """Reveal the top movement card (reshuffling the revealed ones if the deck ran out)."""
    if not state.holmes_deck:
        state.holmes_deck.extend(state.holmes_discard)
        del state.holmes_discard[:]
        with state_rng(state) as rng:
            rng.shuffle(state.holmes_deck)
        out.append(public(pb.Event(reshuffled=pb.HolmesReshuffled(size=len(state.holmes_deck)))))
    card = state.holmes_deck.pop()
    printed = catalogue().movement[card]
    for i, other in enumerate(state.holmes_deck):  # identical copies: always the first id
        if other < card and catalogue().movement[other] == printed:
            state.holmes_deck[i], card = card, other
    state.holmes_discard.append(card)
    state.holmes_revealed += 1
    out.append(public(pb.Event(holmes_card=pb.HolmesRevealed(seat=seat, card=card))))
    return card


def _lights_out(state: pb.State, out: Out) -> None:
    """Reshuffle every movement card into a new deck."""
    state.holmes_deck.extend(state.holmes_discard)
    del state.holmes_discard[:]
    with state_rng(state) as rng:
        rng.shuffle(state.holmes_deck)
    out.append(public(pb.Event(reshuffled=pb.HolmesReshuffled(size=len(state.holmes_deck)))))


def destinations(state: pb.State, rooms: tuple[int, ...]) -> list[int]:
    """The explored places among a card's rooms (both rooms of The Maze)."""
    castle = Castle(state)
    found = []
    for room in rooms:
        for half in range(len(catalogue().rooms[room].halves)):
            if castle.is_explored(place_of(room, half)):
                found.append(place_of(room, half))
    return found


def decider(state: pb.State, revealer: int, aimed: bool = True) -> int:
    """The seat that makes Holmes' choices: whoever revealed the card, or a mode's chooser
    (`holmes_chooser`), except for a card an investigator reveals to move him (`aimed` False:
    Holmes is Alerted (Keep) "allows players to move Holmes")."""
    chooser = rules(state).holmes_chooser(state)
    return chooser if chooser is not None and aimed else revealer


def reveal(state: pb.State, seat: int, escape: bool, out: Out, aimed: bool = True) -> None:
    """Reveal a movement card and move Holmes (Rulebook: Move Holmes), among the rooms a mode
    allows (`holmes_targets`) unless the card was played to move him (`aimed` False: Holmes is
    Alerted (Keep))."""
    partnered = [s for s in key_order(state) if state.players[s].partnered]
    if partnered:
        push(state, pb.FRAME_KIND_FOLLOW, seat, seats=partnered)
    card = catalogue().movement[_draw_card(state, seat, out)]
    waiting = rules(state).card_waiting(state)
    if waiting and card.special != "rampage":
        rules(state).after_holmes_card(state, card.special == "lights_out", out)
    if card.special == "lights_out":
        _lights_out(state, out)
        return
    if card.special == "rampage":  # the extra move after its first movement card
        push(state, pb.FRAME_KIND_RAMPAGE, seat, cards_left=_rampage_cards(),
             escape_ready=escape, source=seat, after_move=int(waiting))
        return
    options = destinations(state, card.rooms)
    if aimed:
        options = rules(state).holmes_targets(state, options)
    if len(options) > 1:
        push(state, pb.FRAME_KIND_HOLMES_ROOM, decider(state, seat, aimed), places=options,
             escape_ready=escape, source=seat)
    elif options:
        enter(state, options[0], seat if escape else NOBODY, out)


def _rampage_cards() -> int:
    return int(catalogue().rules["rampage_cards"])


def step_rampage(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Advance a rampage by one room or one card (Rulebook: Holmes Goes on a Rampage)."""
    escaper = frame.source if frame.escape_ready else NOBODY
    if frame.places:
        nxt = frame.places.pop(0)
        halves = catalogue().rooms[tile_of(nxt)].halves
        sides = rules(state).maze_sides(state, [nxt, nxt + 1]) if len(halves) > 1 else [nxt]
        if len(sides) > 1:
            push(state, pb.FRAME_KIND_HOLMES_ROOM, decider(state, frame.seat),
                 places=sides, escape_ready=frame.escape_ready, source=frame.source)
        else:
            enter(state, sides[0], escaper, out)
        return
    if frame.after_move == 2:
        frame.after_move = 0
        rules(state).after_holmes_card(state, False, out)
        return
    if not frame.cards_left:
        pop(state)
        return
    card = catalogue().movement[_draw_card(state, frame.seat, out)]
    if card.special == "lights_out":
        armed = frame.after_move
        pop(state)
        if armed:
            rules(state).after_holmes_card(state, True, out)
        _lights_out(state, out)
    elif card.special == "rampage":
        frame.cards_left = _rampage_cards()
    else:
        frame.cards_left -= 1
        frame.places.extend(p for p in destinations(state, card.rooms) if p % 2 == 0)
        if frame.after_move:
            frame.after_move = 2


def choose_room(state: pb.State, frame: pb.Frame, place: int, out: Out) -> None:
    """The chooser picked one of the listed rooms."""
    escaper = frame.source if frame.escape_ready else NOBODY
    pop(state)
    enter(state, place, escaper, out)


def enter(state: pb.State, place: int, escaper: int, out: Out, answerable: bool = True) -> None:
    """Holmes moves into a room; everyone there is struck unless they escape or hide (with
    `answerable` False, for a mode's card, no Event Card or ability answers him)."""
    if place == state.holmes:
        return
    moved = pb.HolmesMoved(from_place=state.holmes, to_place=place)
    out.append(public(pb.Event(holmes_moved=moved)))
    rules(state).holmes_leaves(state)
    state.holmes = place
    there = [s for s in key_order(state)
             if state.players[s].place == place and not state.players[s].partnered]
    if not there:
        return
    push(state, pb.FRAME_KIND_ENCOUNTER, NOBODY, seats=there, place=place)
    if catalogue().rooms[tile_of(place)].special == "whitechapel":
        push(state, pb.FRAME_KIND_HIDE, NOBODY, seats=there, place=place)
    if not answerable:
        return
    if not _drawing(state) and rules(state).encounter_window(state):
        push(state, pb.FRAME_KIND_EVENT_WINDOW, there[0], seats=there, place=place)
    in_rampage = any(f.kind == pb.FRAME_KIND_RAMPAGE for f in state.frames)
    for seat in reversed(there):
        player = state.players[seat]
        adeline = (player.character == pb.CHARACTER_ADELINE and not player.ability_used
                   and not in_rampage)
        if seat == escaper or adeline:
            push(state, pb.FRAME_KIND_ESCAPE, seat, bonus=seat == escaper, place=place,
                 escape_ready=adeline)


def _drawing(state: pb.State) -> bool:
    """Whether an Event draw is under way (no cards until everyone has drawn)."""
    return any(f.kind == pb.FRAME_KIND_ACT and f.action == pb.ACTION_TILE_DRAW
               for f in state.frames)


def escape_options(state: pb.State, frame: pb.Frame) -> list[int]:
    """Rooms the Move Holmes selector may escape to through doorways."""
    if not frame.bonus:
        return []
    castle = Castle(state)
    return [n for n in castle.neighbours(state.players[frame.seat].place) if n != state.holmes]


def escaped(state: pb.State) -> None:
    """The escape bonus is spent for the rest of this rampage."""
    rampage = below(state, pb.FRAME_KIND_RAMPAGE)
    if rampage is not None:
        rampage.escape_ready = False


def hide_pending(state: pb.State, frame: pb.Frame) -> list[int]:
    """Hiders in the Whitechapel Suite who still owe their secret choice, and the seat that
    hides for Holmes (`holmes_hider`), who chooses his spot at the same time."""
    hiders = [s for s in frame.seats if exposed(state, s, frame.place)]
    found = [s for s in hiders if state.players[s].hiding == pb.HIDING_SPOT_UNSPECIFIED]
    holmes = rules(state).holmes_hider(state)
    if hiders and holmes is not None and not state.players[holmes].hiding:
        found = sorted([*found, holmes])
    return found


def exposed(state: pb.State, seat: int, place: int) -> bool:
    """Whether a seat is in the room Holmes occupies, not partnered with him."""
    player = state.players[seat]
    return player.place == place and state.holmes == place and not player.partnered


def reveal_hiding(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Everyone has hidden: reveal, and spare those who chose a different spot from Holmes."""
    hiders = [s for s in frame.seats if exposed(state, s, frame.place)]
    holmes = rules(state).holmes_hider(state)
    if holmes is not None:
        holmes_spot = state.players[holmes].hiding
        state.players[holmes].hiding = pb.HIDING_SPOT_UNSPECIFIED
    else:  # "choose any player to randomly select a side of the Token for Holmes"
        with state_rng(state) as rng:
            holmes_spot = rng.choice((pb.HIDING_SPOT_BED, pb.HIDING_SPOT_BATHROOM))
    spots = [state.players[s].hiding for s in hiders]
    out.append(public(pb.Event(hiding=pb.HidingRevealed(holmes=holmes_spot, spots=spots,
                                                        seats=hiders))))
    pop(state)
    encounter = top(state)
    for seat, spot in zip(hiders, spots, strict=True):
        state.players[seat].hiding = pb.HIDING_SPOT_UNSPECIFIED
        if spot != holmes_spot and encounter is not None:
            encounter.seats.remove(seat)
            out.append(public(pb.Event(spared=pb.Spared(seat=seat, reason="hid"))))


def step_encounter(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Strike the next seat still in Holmes' room (Rulebook: Encountering Holmes)."""
    while frame.seats:
        seat = frame.seats.pop(0)
        if exposed(state, seat, frame.place):
            strike(state, seat, out)
            return
    pop(state)


def strike(state: pb.State, seat: int, out: Out) -> None:
    """Take a Holmes Strikes! cube and drop cubes by the progression (Top Hats adjust it)."""
    player = state.players[seat]
    extra = rules(state).strike_modifier(state, seat, out)
    if extra is None:
        return
    progression = catalogue().rules["strike_progression"]
    rules(state).track(state, seat, "strike", out)
    player.strikes += 1
    drop = progression[min(player.strikes, len(progression)) - 1] - player.top_hat + extra
    player.top_hat = 0
    drop = max(0, min(drop, total(player.board)))
    out.append(public(pb.Event(struck=pb.Struck(seat=seat, drop=drop, strikes=player.strikes))))
    if drop:
        push(state, pb.FRAME_KIND_DROP_EVIDENCE, seat, count=drop, place=player.place)


def step_follow(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Adeline follows Holmes to his room, then escapes through a doorway (Rulebook: Characters)."""
    pop(state)
    for seat in reversed(frame.seats):
        player = state.players[seat]
        if not player.partnered:
            continue
        player.partnered = False
        if player.place != state.holmes:
            out.append(public(pb.Event(moved=pb.Moved(seat=seat, from_place=player.place,
                                                      to_place=state.holmes, how="follow"))))
            player.place = state.holmes
        push(state, pb.FRAME_KIND_EVENT_MOVE, seat, count=1, place=state.holmes)
