"""Castle Junction Cards (Rulebook: Play as Holmes: Castle Junction Cards; Castle Junction Card
Objectives; Castle Junction Card Actions; Other Clarifications)."""

from __future__ import annotations

from collections import Counter

from parlour.engine.game import Emitted
from parlour.engine.rng import Rng
from parlour.engine.runtime import serialize
from parlour.games.murdercastle import flow, text
from parlour.games.murdercastle.board import place_of
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.modes import castle_junction as cj
from parlour.games.murdercastle.modes import holmes_cards, play_as_holmes
from parlour.games.murdercastle.setup import new_state
from parlour.games.murdercastle.tests.positions import (
    BLUE,
    PHARMACY_PLACE,
    WHITE,
    add_room,
    card_of,
    frame,
    game,
    give,
    legal,
    open_window,
    play,
    set_board,
    stack_events,
    start_tile,
)
from parlour.games.murdercastle.v1 import junction_pb2 as jpb
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

AD, AB, LO, HO, JE, JO = (pb.CHARACTER_ADELINE, pb.CHARACTER_ABRAHAM, pb.CHARACTER_LOLA,
                          pb.CHARACTER_HOYT, pb.CHARACTER_JEREMIAH, pb.CHARACTER_JONAH)
OBJ = jpb.JunctionObjective
SEATS = (0, 1, 2)


def test_thirteen_cards_carry_the_six_objectives_and_five_rewards():
    """13 Castle Junction Cards (Components); every objective of "Castle Junction Card
    Objectives" and every action of "Castle Junction Card Actions" is on some card."""
    cards = cj.cards()
    assert len(cards) == 13
    assert set(Counter(c.objective for c in cards.values())) == set(OBJ.values()) - {0}
    assert len({c.reward for c in cards.values()}) == 5


def test_levels_objective_basement_main_floor_and_second_story():
    """"At least 1 player occupies a Basement Room Tile, 1 player occupies a Room Tile on the
    main floor, and 1 player occupies a 2nd Story Room Tile"; the room built off Basement #3
    counts as the basement (Castle Junction Card Objectives)."""
    state = game([AD, AB, LO], second_story=True)
    add_room(state, 22, 1, -1, level=1)  # the Laboratory, upstairs
    add_room(state, 4, 2, 2, level=-1)   # built off Basement #3
    state.players[0].place = place_of(1)
    state.players[1].place = PHARMACY_PLACE
    state.players[2].place = place_of(4)
    assert OBJ.JUNCTION_OBJECTIVE_LEVELS not in cj.met_on_position(state, SEATS)
    state.players[2].place = place_of(22)
    assert cj.stories_occupied(state, SEATS) == {-1, 0, 1}
    assert OBJ.JUNCTION_OBJECTIVE_LEVELS in cj.met_on_position(state, SEATS)
    state.players[0].place = place_of(4)
    assert OBJ.JUNCTION_OBJECTIVE_LEVELS in cj.met_on_position(state, SEATS)


def test_abilities_objective_once_a_game():
    """"Once each player has played their ability, this objective is considered complete";
    "Only 1 of these objective cards can be achieved" (Castle Junction Card Objectives)."""
    state = game([AD, AB, LO])
    state.players[0].ability_used = state.players[1].ability_used = True
    assert OBJ.JUNCTION_OBJECTIVE_ABILITIES not in cj.met_on_position(state, SEATS)
    state.players[2].ability_used = True
    assert OBJ.JUNCTION_OBJECTIVE_ABILITIES in cj.met_on_position(state, SEATS)
    state.junction.abilities_done = True
    assert OBJ.JUNCTION_OBJECTIVE_ABILITIES not in cj.met_on_position(state, SEATS)


def played(seat: int, mimic: bool = False) -> Emitted:
    return Emitted(pb.Event(played=pb.EventPlayed(seat=seat, card=1, mimic=mimic)))


def test_event_round_objective_no_discards_no_mimic_within_one_round():
    """"Once each player has played an Event Card in a single round": a discard does not
    contribute, nor does Lola's ability (Castle Junction Card Objectives; Other
    Clarifications); the tally restarts each round."""
    state = game([AD, AB, LO])
    discard = Emitted(pb.Event(discarded=pb.EventDiscarded(seat=2, card=1)))
    assert not cj.met_by_events(state, [played(0), played(1), discard, played(2, True)], SEATS)
    ended = Emitted(pb.Event(round_ended=pb.RoundEnded(round=1)))
    assert not cj.met_by_events(state, [ended, played(2)], SEATS)
    assert list(state.junction.played_round) == [2]
    assert cj.met_by_events(state, [played(0), played(1)], SEATS) == {
        OBJ.JUNCTION_OBJECTIVE_EVENT_ROUND}


def test_counter_objective_not_so_fast_answers_pickpocket():
    """"Pickpocket and Not So Fast" is a successful counter (Castle Junction Card
    Objectives: Examples)."""
    state = game([AD, HO])
    give(state, 0, card_of("pickpocket"))
    give(state, 1, card_of("not_so_fast"))
    set_board(state, 0, [2, 2, 2, 2, 2])
    set_board(state, 1, [4, 0, 0, 0, 0])
    open_window(state, key=0)
    attack = play(state, 0, play=pb.PlayEvent(card=card_of("pickpocket")))
    assert OBJ.JUNCTION_OBJECTIVE_COUNTER not in cj.met_by_events(state, attack, (0, 1))
    answer = play(state, 1, play=pb.PlayEvent(card=card_of("not_so_fast")))
    assert OBJ.JUNCTION_OBJECTIVE_COUNTER in cj.met_by_events(state, answer, (0, 1))


def test_counter_objective_lolas_mimic_counts_a_trapdoor_dodge_does_not():
    """Lola's ability "does count towards the objective: A player successfully counters another
    player's Event Card" (Other Clarifications); dodging a fall (no Event Card attacked) does
    not."""
    state = game([LO, HO])
    mimic = Emitted(pb.Event(cancelled=pb.EventCancelled(seat=0, card=card_of("pickpocket"))))
    dodge = Emitted(pb.Event(cancelled=pb.EventCancelled(seat=0, card=0,
                                                         defence=card_of("player_dexterity"))))
    assert OBJ.JUNCTION_OBJECTIVE_COUNTER in cj.met_by_events(state, [mimic], (0, 1))
    assert not cj.met_by_events(state, [dodge], (0, 1))


def test_evidence_objective_each_type_once():
    """"Once all players have collected all of the same type of evidence"; "Castle
    Blueprints cannot be used for a future objective" (Castle Junction Card Objectives:
    Example)."""
    state = game([AD, AB, LO])
    for seat in SEATS:
        set_board(state, seat, [4, 4, 1, 0, 0])
    set_board(state, 2, [4, 3, 1, 0, 0])
    assert cj.evidence_colour(state, SEATS) == BLUE
    state.junction.used_colours.append(BLUE)
    assert cj.evidence_colour(state, SEATS) == 0
    set_board(state, 2, [4, 4, 1, 0, 0])
    assert cj.evidence_colour(state, SEATS) == WHITE


def test_same_room_only_after_the_first_round():
    """"As long as it is after the first round, all players will complete this objective by
    occupying the same room" (Castle Junction Card Objectives)."""
    state = game([AD, AB, LO])
    assert OBJ.JUNCTION_OBJECTIVE_SAME_ROOM not in cj.met_on_position(state, SEATS)
    state.round = 1
    assert OBJ.JUNCTION_OBJECTIVE_SAME_ROOM in cj.met_on_position(state, SEATS)
    state.players[1].place = place_of(1)
    assert OBJ.JUNCTION_OBJECTIVE_SAME_ROOM not in cj.met_on_position(state, SEATS)


# -- Play as Holmes: the cards in play ---------------------------------------------------
HOLMES = 4
FOUR = [AD, AB, LO, HO]


def holmes_game(characters: list[int] = FOUR, seed: int = 1) -> pb.State:
    """A settled Play as Holmes game (the Holmes seat last), his Ability Card chosen."""
    chosen = [*characters[:HOLMES], pb.CHARACTER_UNSPECIFIED, *characters[HOLMES:]]
    options = pb.Options(characters=chosen, play_as_holmes=pb.PlayAsHolmes(seat=HOLMES))
    state = new_state(options, len(chosen), seed)
    flow.settle(state, [])
    play(state, HOLMES, choose_ability=jpb.ChooseHolmesAbility(ability=jpb.HOLMES_ABILITY_ACID))
    return state


def set_open(state: pb.State, slot: int, card: int) -> None:
    """Make a card face up in a slot (swapping it with wherever it was)."""
    junction = state.junction
    for zone in (junction.deck, junction.open):
        if card in zone:
            zone[list(zone).index(card)] = junction.open[slot]
            break
    junction.open[slot] = card


def card_with(objective: int, reward: int = 0) -> int:
    return next(i for i, c in sorted(cj.cards().items())
                if c.objective == objective and (not reward or c.reward == reward))


def keep(state: pb.State, seat: int, reward: int) -> int:
    """Hand a completed card with this reward to a seat."""
    card = next(i for i, c in sorted(cj.cards().items()) if c.reward == reward)
    for zone in (state.junction.deck, state.junction.open):
        if card in zone:
            zone[list(zone).index(card)] = 0
    state.junction.deck[:] = [c for c in state.junction.deck if c]
    if not state.junction.open[0] or not state.junction.open[1]:
        for slot in (0, 1):
            if not state.junction.open[slot]:
                state.junction.open[slot] = state.junction.deck.pop()
    state.junction.kept.add(seat=seat, card=card)
    return card


def test_setup_two_objectives_face_up_the_next_one_shown_rewards_hidden():
    """"The first 2 cards on the top of the deck are placed down on the table"; "The top card
    of the deck ... displays the objective coming up. Players cannot flip the Castle Junction
    Cards to see the reward prior to completing the objective" (Castle Junction Cards)."""
    state = holmes_game()
    junction = state.junction
    assert len(junction.open) == 2 and len(junction.deck) == 11
    for viewer in (None, 0, HOLMES):
        seen = GAME.view(state, viewer).junction
        assert list(seen.open) == [cj.objective(c) for c in junction.open]
        assert seen.next == cj.objective(junction.deck[-1]) and seen.deck_size == 11
        assert not seen.kept and not seen.discard
    twin = GAME.resample_hidden(state, 0, Rng.from_seed(3))
    assert serialize(GAME.view(twin, 0)) == serialize(GAME.view(state, 0))


def test_a_completed_objective_goes_to_the_skeleton_key_holder_and_is_replaced():
    """"The player with the Skeleton Key retains the Castle Junction Card"; the top of the deck
    replaces it; its reward is then seen (Castle Junction Cards); checked after every action."""
    state = holmes_game()
    card = card_with(OBJ.JUNCTION_OBJECTIVE_SAME_ROOM)
    set_open(state, 0, card)
    state.round = 1
    top_card = state.junction.deck[-1]
    events = play(state, state.key, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_ONE))
    assert [(k.seat, k.card) for k in state.junction.kept] == [(state.key, card)]
    assert state.junction.open[0] == top_card
    done = [e.event.junction_completed for e in events if e.event.HasField("junction_completed")]
    assert [d.card for d in done] == [card]
    assert list(GAME.view(state, None).junction.kept)[0].card == card


def test_junction_cards_have_no_limit_the_keep_limit_still_holds():
    """"There is no limit to how many Castle Junction Cards are kept"; "A player can still keep
    up to 3 Event Cards regardless" (Castle Junction Cards: Note)."""
    state = holmes_game()
    for reward in (jpb.JUNCTION_REWARD_BLOCK_HOLMES, jpb.JUNCTION_REWARD_NO_MOVEMENT,
                   jpb.JUNCTION_REWARD_REMOVE_CUBE, jpb.JUNCTION_REWARD_BOX_CARD):
        keep(state, 0, reward)
    give(state, 0, card_of("barter"), card_of("snitch"), card_of("ambush"))
    stack_events(state, card_of("pickpocket"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert frame(state).kind == pb.FRAME_KIND_HAND_LIMIT
    assert len(cj.held(state, 0)) == 4


def vote_on(state: pb.State, votes: dict[int, bool]) -> list:
    """Propose discarding slot 0 in a window, then cast the votes (all pending at once)."""
    open_window(state, key=0)
    play(state, frame(state).seats[0], propose=jpb.ProposeDiscard(slot=0))
    assert sorted(flow.pending_seats(state)) == [0, 1, 2, 3]
    events = []
    for seat, discard in votes.items():
        events += play(state, seat, vote=jpb.Vote(discard=discard))
    return events


def test_a_majority_discards_an_objective_and_holmes_draws_a_movement_card():
    """"The majority of players can decide to discard one of the Castle Junction Cards"; "The
    Castle Junction Card on the top of the deck is then placed onto the table"; "The penalty
    ... is an immediate draw of 1 card from the Holmes' Movement Card deck" (Castle Junction
    Cards); the vote is simultaneous and secret until counted."""
    state = holmes_game()
    doomed, top_card = state.junction.open[0], state.junction.deck[-1]
    revealed = state.holmes_revealed
    events = vote_on(state, {0: True, 1: True, 2: False, 3: True})
    voted = [e for e in events if e.event.HasField("voted")]
    assert all(not e.event.voted.vote for e in voted if e.visible_to(None))
    assert state.junction.open[0] == top_card and list(state.junction.buried) == [doomed]
    assert state.holmes_revealed == revealed + 1
    assert list(GAME.view(state, None).junction.last_yes) == [0, 1, 3]


def test_a_tie_is_no_majority():
    """"If there is a tie, then there is not a majority" (Castle Junction Cards)."""
    state = holmes_game()
    kept, revealed = list(state.junction.open), state.holmes_revealed
    vote_on(state, {0: True, 1: False, 2: True, 3: False})
    assert list(state.junction.open) == kept and state.holmes_revealed == revealed


def window_for(state: pb.State, seat: int) -> None:
    """Open an Event Card window and pass until `seat` is asked."""
    open_window(state, key=0)
    while frame(state).seats[0] != seat:
        play(state, frame(state).seats[0], pass_=pb.Pass())


def test_block_holmes_sends_him_back_and_nobody_is_struck():
    """"Block Holmes from entering any room. Holmes returns to the prior room"; "A player may
    play this action for any player"; those in the prior room "would not take another Holmes
    Strike!" (Castle Junction Card Actions)."""
    state = holmes_game()
    add_room(state, 4, 0, -1)
    state.players[1].place = place_of(4)
    state.players[1].ability_used = True  # Abraham: nothing to answer Holmes with
    state.players[3].place = state.holmes
    set_board(state, 1, [4, 0, 0, 0, 0])
    set_board(state, 3, [4, 0, 0, 0, 0])
    keep(state, 2, jpb.JUNCTION_REWARD_BLOCK_HOLMES)
    give(state, 0, card_of("snitch"))
    prior = state.holmes
    window_for(state, 0)
    play(state, 0, play=pb.PlayEvent(card=card_of("snitch")))  # seat 1 the only target
    assert state.holmes == place_of(4) and frame(state).seats[:] == [2]
    play(state, 2, junction=jpb.PlayJunction(card=cj.held(state, 2)[0]))
    assert state.holmes == prior
    assert [state.players[s].strikes for s in (1, 3)] == [0, 0] and state.holmes_tracker == 0


def test_no_movement_card_at_the_end_of_the_round_the_after_card_stays():
    """"Holmes will not draw a Holmes' Movement Card at the end of the round"; the Holmes Moves
    up to 2 Rooms card "shall remain on the top of the deck" (Castle Junction Card Actions)."""
    state = holmes_game()
    after = next(c for c in play_as_holmes.panel().deck
                 if holmes_cards.kind(c) == "holmes_moves_after")
    state.after_card = after
    keep(state, 0, jpb.JUNCTION_REWARD_NO_MOVEMENT)
    window_for(state, 0)
    play(state, 0, junction=jpb.PlayJunction(card=cj.held(state, 0)[0]))
    assert GAME.view(state, HOLMES).junction.skip_movement
    revealed = state.holmes_revealed
    del state.frames[:]
    state.current = pb.ACTION_TILE_UNSPECIFIED
    state.selections = 4
    flow.settle(state, [])
    assert state.holmes_revealed == revealed and state.after_card == after
    assert not state.junction.skip_movement


def unlock(state: pb.State, *names: str) -> None:
    """Put cubes on these Control Panel placeholders (their cards go to the supply)."""
    for name in names:
        play_as_holmes.place_cube(state, play_as_holmes.panel().slot(name), [])


def card_of_kind(kind: str) -> int:
    return next(c for c in play_as_holmes.panel().needs if holmes_cards.kind(c) == kind)


def test_remove_a_cube_its_card_is_lost_unless_the_cube_goes_back():
    """"Remove a Holmes' cube from Holmes' Control Panel": its card is not available "unless
    Holmes replaces the lost action with the new, end of round cube" (Castle Junction Card
    Actions)."""
    state = holmes_game()
    unlock(state, "1a")
    lock_door, slot = card_of_kind("lock_door"), play_as_holmes.panel().slot("1a")
    assert lock_door in state.holmes_supply
    keep(state, 0, jpb.JUNCTION_REWARD_REMOVE_CUBE)
    window_for(state, 0)
    play(state, 0, junction=jpb.PlayJunction(card=cj.held(state, 0)[0]))  # one cube: no choice
    assert not state.panel and lock_door not in state.holmes_supply
    assert slot in play_as_holmes.open_slots(state)
    play_as_holmes.place_cube(state, slot, [])
    assert lock_door in state.holmes_supply


def test_a_card_on_a_tile_lapses_only_when_the_next_cube_goes_elsewhere():
    """The card of a removed cube "will not be available to Holmes beginning the next round":
    face down on a tile it stays this round, and goes back to the left of the Control Panel
    once Holmes' end-of-round cube has gone elsewhere (Castle Junction Card Actions)."""
    state = holmes_game()
    unlock(state, "1a")
    lock_door = card_of_kind("lock_door")
    play_as_holmes.assign(state, lock_door, pb.ACTION_TILE_COLLECT, [])
    keep(state, 0, jpb.JUNCTION_REWARD_REMOVE_CUBE)
    window_for(state, 0)
    play(state, 0, junction=jpb.PlayJunction(card=cj.held(state, 0)[0]))
    assert [t.card for t in state.tile_cards] == [lock_door]
    out: list = []
    play_as_holmes.place_cube(state, play_as_holmes.panel().slot("2a"), out)
    cj.lapse(state, out)
    assert not state.tile_cards and lock_door in play_as_holmes.locked(state)


def test_the_two_cube_card_needs_both_cubes():
    """"The Move up to 2 Rooms and Lock up to 2 Unexplored Doors ... will always require 2
    cubes" (Castle Junction Card Actions: Note)."""
    state = holmes_game()
    unlock(state, "1a", "1b", "1c", "2a", "2b", "2c")
    move_lock = card_of_kind("move_2_lock_2")
    assert move_lock in state.holmes_supply
    keep(state, 0, jpb.JUNCTION_REWARD_REMOVE_CUBE)
    window_for(state, 0)
    play(state, 0, junction=jpb.PlayJunction(card=cj.held(state, 0)[0]))
    play(state, 0, junction_target=jpb.JunctionTarget(slot=play_as_holmes.panel().slot("2c")))
    assert move_lock not in state.holmes_supply
    assert card_of_kind("move_2") in state.holmes_supply


def test_remove_a_card_from_a_tile_back_to_the_supply_unseen():
    """"A Holmes' Action Card is removed from any of the Action Tiles and placed back into the
    Holmes' Action Card supply" (Castle Junction Card Actions); which card it was stays
    Holmes' secret."""
    state = holmes_game()
    seal = play_as_holmes.panel().start[1]
    play_as_holmes.assign(state, seal, pb.ACTION_TILE_COLLECT, [])
    keep(state, 0, jpb.JUNCTION_REWARD_REMOVE_CARD)
    window_for(state, 0)
    before = GAME.view(state, 0).unlocked
    events = play(state, 0, junction=jpb.PlayJunction(card=cj.held(state, 0)[0]))
    assert not state.tile_cards and seal in state.holmes_supply
    assert GAME.view(state, 0).unlocked == before
    removed = [e.event.junction_removed for e in events if e.event.HasField("junction_removed")]
    assert [(r.tile, r.card) for r in removed] == [(pb.ACTION_TILE_COLLECT, 0)]


def test_permanently_remove_a_card():
    """"A Holmes' Action Card is removed from any of the Action Tiles and placed back into the
    box" (Castle Junction Card Actions)."""
    state = holmes_game()
    seal = play_as_holmes.panel().start[1]
    play_as_holmes.assign(state, seal, pb.ACTION_TILE_COLLECT, [])
    keep(state, 0, jpb.JUNCTION_REWARD_BOX_CARD)
    window_for(state, 0)
    play(state, 0, junction=jpb.PlayJunction(card=cj.held(state, 0)[0]))
    assert list(state.holmes_boxed) == [seal] and seal not in play_as_holmes.unlocked(state)


def test_random_games_reach_every_part():
    """Full-length random Play as Holmes games propose and count votes both ways, complete
    objectives, play rewards and Holmes' Ability Card (issue 15: conformance and playouts
    exercise the Castle Junction Cards)."""
    seen: Counter = Counter()
    for seed in range(4):
        chooser = Rng.from_seed(seed)
        options = pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=seed % 5))
        state = GAME.new_state(options, 5, seed)
        while flow.pending_seats(state):
            seats = flow.pending_seats(state)
            seat = seats[chooser.below(len(seats))]
            actions = GAME.legal_actions(state, seat)
            for emitted in GAME.apply(state, seat, actions[chooser.below(len(actions))]):
                event = emitted.event
                kind = event.WhichOneof("kind")
                if kind == "counted":
                    seen["discarded" if event.counted.discarded else "kept"] += 1
                elif kind == "junction_played":
                    seen[jpb.JunctionReward.Name(cj.reward(event.junction_played.card))] += 1
                elif kind in ("junction_completed", "holmes_ability"):
                    seen[kind] += 1
        assert state.finished
    assert {"discarded", "kept", "junction_completed", "holmes_ability"} <= set(seen)
    assert len([k for k in seen if k.startswith("JUNCTION_REWARD")]) >= 3, seen


def test_every_new_action_and_event_reads_as_a_line():
    """Castle Junction and Holmes' Ability Card actions and events have their own one-line
    descriptions (issue 11: every game describes its actions and events)."""
    for kind in ("junction", "propose", "vote", "choose_ability", "holmes_ability",
                 "junction_target"):
        action = pb.Action()
        getattr(action, kind).SetInParent()
        assert text.describe_action(action) != "does nothing"
    for kind in ("junction_completed", "junction_dealt", "junction_played", "proposed", "voted",
                 "counted", "ability_chosen", "holmes_ability", "junction_removed"):
        event = pb.Event()
        getattr(event, kind).SetInParent()
        if kind == "holmes_ability":
            event.holmes_ability.ability = jpb.HOLMES_ABILITY_GAS
        assert text.describe_event(event) != "nothing happened", kind


def proposes(state: pb.State, seat: int) -> bool:
    """Whether a seat is offered a discard proposal now."""
    return any(a.HasField("propose") for a in legal(state, seat))


def test_a_refused_proposal_is_not_repeated_by_its_proposer_this_round():
    """"At any point of the game, the majority of players can decide to discard one of the
    Castle Junction Cards": another investigator may propose again after a refusal; only the
    refused proposer waits for the next round (Castle Junction Cards; RULES.md)."""
    state = holmes_game()
    open_window(state, key=0)
    proposer = frame(state).seats[0]
    play(state, proposer, propose=jpb.ProposeDiscard(slot=0))
    for seat, discard in {0: True, 1: False, 2: True, 3: False}.items():
        play(state, seat, vote=jpb.Vote(discard=discard))
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW
    others = [s for s in cj.investigators(state) if s != proposer]
    assert not proposes(state, proposer)
    assert any(proposes(state, s) for s in others)
