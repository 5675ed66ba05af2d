"""The catalogue against every number the rulebook states."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.games.isayholmes.catalogue import (
    DECK,
    HAND_SIZE,
    KINDS,
    VILLAINS,
    deal_out_stack,
    draw_pile_cards,
    load,
)
from parlour.games.isayholmes.effects import EFFECTS
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


def test_deck_has_120_cards():
    """The deck holds 120 cards (Rulebook 3: 24 dealt + 96 in the Draw Pile for 4 players)."""
    assert len(DECK) == 120


def test_four_players_deal_24_and_draw_96():
    """With 4 players the cards numbered 3 and 4 make a 24-card Deal Out Stack (Rulebook 3)."""
    assert len(deal_out_stack(4)) == 24
    assert len(draw_pile_cards(4)) == 96


@pytest.mark.parametrize("seats", range(3, 9))
def test_deal_out_stack_is_six_cards_a_player(seats):
    """Every player count deals exactly six cards each from its Deal Out Stack (Rulebook 3)."""
    assert len(deal_out_stack(seats)) == HAND_SIZE * seats
    assert Counter(deal_out_stack(seats)) + Counter(draw_pile_cards(seats)) == Counter(DECK)


def test_values_and_deal_numbers_in_range():
    """Point Values run 1-50 and Setup Deal Numbers 3-8 (Rulebook 2)."""
    values = {k.value for k in KINDS.values()}
    assert min(values) == 1 and max(values) == 50
    numbers = {n for k in KINDS.values() for n in k.deal}
    assert numbers == set(range(3, 9))


def test_four_villains():
    """Milverton, Clay, Moran and Moriarty are the Villains (Rulebook 2, Villains)."""
    assert sorted(KINDS[v].title for v in VILLAINS) == ["Clay", "Milverton", "Moran", "Moriarty"]


def test_opening_card_is_always_dealt():
    """The Game is Afoot! has Setup Deal Number 3, so someone always holds it (Rulebook 4)."""
    assert KINDS[pb.CARD_THE_GAME_IS_AFOOT].deal == {3: 1}


def test_ids_match_the_proto_enum():
    """Every card kind in the data is the proto's Card enum value of the same name."""
    assert {k.id for k in KINDS.values()} == set(pb.Card.values()) - {pb.CARD_UNSPECIFIED}
    for kind in KINDS.values():
        assert pb.Card.Name(kind.id) == f"CARD_{kind.key}"


def test_every_effect_has_code_and_every_code_a_card():
    """Each special rule named in the data has an implementation, and none is unused."""
    used = {k.effect for k in KINDS.values() if k.effect}
    assert used == set(EFFECTS)


def test_story_sequence_names_real_cards():
    """Every title in a Story Sequence is a card in the deck (Rulebook 2, Story Sequence)."""
    titles = {k.title for k in KINDS.values()}
    for kind in KINDS.values():
        for name in kind.next:
            assert name in titles or name.isupper(), (kind.title, name)


def test_defences_follow_rulebook_lists():
    """Alibi blocks Arrest, Inspector, I Suspect, Boat, Foot Chase, Watson, Scotland Yard;
    Mastermind those and Telegram, Disguise, Clue, Deduction, Mycroft, Holmes (Rulebook 7)."""
    by_alibi = {k.title for k in KINDS.values() if pb.CARD_ALIBI in k.defences}
    assert by_alibi == {
        "Arrest",
        "Inspector",
        "I Suspect",
        "Boat",
        "Foot Chase",
        "Watson",
        "Scotland Yard",
    }
    by_mastermind = {k.title for k in KINDS.values() if pb.CARD_MASTERMIND in k.defences}
    extra = {"Telegram", "Disguise", "Clue", "Deduction", "Mycroft", "Holmes"}
    assert by_mastermind == by_alibi | extra


def test_bad_data_is_refused(tmp_path):
    """A catalogue whose ids disagree with the proto is refused on load."""
    import json

    from parlour.games.isayholmes.catalogue import DATA

    raw = json.loads(DATA.read_text())
    raw["cards"][0]["key"] = "SOMETHING_ELSE"
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="SOMETHING_ELSE"):
        load(bad)


def test_only_holmes_and_watson_may_be_declined(tmp_path):
    """Holmes "may make an Arrest" and Watson is the "same as Holmes" (Rulebook 2); the data
    marks only them optional, and refuses an optional card that names nobody."""
    import json

    from parlour.games.isayholmes.catalogue import DATA

    assert {k.id for k in KINDS.values() if k.optional} == {pb.CARD_HOLMES, pb.CARD_WATSON}
    raw = json.loads(DATA.read_text())
    (fog,) = [c for c in raw["cards"] if c["key"] == "THICK_FOG"]
    fog["optional"] = True
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="THICK_FOG"):
        load(bad)


@pytest.mark.parametrize(
    ("card", "count"),
    [
        (pb.CARD_I_SAY, -10),
        (pb.CARD_FLEEING, -10),
        (pb.CARD_TELEGRAM, 10),
        (pb.CARD_CLUE, 2),
        (pb.CARD_I_SUSPECT, 1),
        (pb.CARD_BOAT, 1),
        (pb.CARD_FOOT_CHASE, 1),
        (pb.CARD_SCOTLAND_YARD_PREVIOUS, 2),
        (pb.CARD_SCOTLAND_YARD_NEXT, 2),
        (pb.CARD_INSPECTOR, 2),
    ],
)
def test_numbers_printed_in_the_card_rules(card, count):
    """I Say and Fleeing -10, Telegram +10, Clue 2 cards, I Suspect/Boat/Foot Chase 1 card,
    Scotland Yard and Inspector 2 cards (Rulebook 2, Card Notes; Rulebook 7)."""
    assert KINDS[card].count == count


def test_story_sequences_that_show_i_say():
    """Some cards show "I Say (-10)" as a sequence option (Rulebook 2, I Say); the transparent
    cards (I Say, Plot Thickens, Fleeing) have no Story Sequence of their own."""
    shows = {k.title for k in KINDS.values() if k.i_say}
    assert shows == {
        "Thick Fog",
        "221-B Baker St.",
        "Manor",
        "Castle",
        "Clue",
        "Telegram",
        "Mycroft",
    }
    transparent = {k.title for k in KINDS.values() if k.transparent}
    assert transparent == {"I Say", "Plot Thickens", "Fleeing"}
    assert all(not KINDS[c].next for c in (pb.CARD_I_SAY, pb.CARD_PLOT_THICKENS, pb.CARD_FLEEING))


def test_every_card_carries_its_printed_rules(tmp_path):
    """Rulebook 2: each card shows "its special gameplay rules, if any"; the data quotes them
    (Card Notes, Specific Cards) and a card without its text is refused."""
    import json

    from parlour.games.isayholmes.catalogue import DATA

    assert KINDS[pb.CARD_WATSON].text == (
        "Same as Holmes except that an Alibi can be used as a defense."
    )
    assert "previous opponent" in KINDS[pb.CARD_SCOTLAND_YARD_PREVIOUS].text
    assert "next opponent" in KINDS[pb.CARD_SCOTLAND_YARD_NEXT].text
    raw = json.loads(DATA.read_text())
    del raw["cards"][5]["text"]
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="TRAIN: no printed rules text"):
        load(bad)
