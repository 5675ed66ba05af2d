"""Murder Castle's modes above the standard rules (RULES.md "Modes as plugins"; issue 46 item
2): each mode declares its own frames' and actions' entries in the standard tables, no
standard module names a frame a mode adds, and the standard modules import nothing of
`modes/`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from parlour.games.murdercastle import flow, names, prompts, reference, text
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.game import DECISION_NAMES, GAME
from parlour.games.murdercastle.hooks import MODES, Points, declared
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

FOLDER = Path(__file__).resolve().parents[1]
#: Each declared table beside the standard table it extends.
STANDARD = {
    "public_choices": flow.PUBLIC_CHOICES,
    "reasons": flow.REASONS,
    "reason_texts": reference.REASONS,
    "decision_texts": reference.DECISION_KINDS,
    "passed": text.PASSED,
    "pass_labels": prompts.PASS_LABELS,
    "copies": text.COPIES,
    "room_effects": prompts.ROOM_EFFECTS,
    "action_words": (),
    "action_labels": (),
    "event_words": text._SIMPLE,
    "prompts": (),
    "floors": names.FLOORS,
    "any_level_rooms": (),
    "unbounded_rooms": (),
}


def entries(mode, table: str) -> set:
    return set(getattr(mode, table))


@pytest.mark.parametrize("table", sorted(STANDARD))
def test_each_entry_is_one_modes_and_not_the_standard_tables(table):
    """No two modes declare one key, and the standard table holds none of them."""
    seen: dict = {}
    for mode in MODES.all:
        for key in entries(mode, table):
            assert key not in seen, f"{table}: {key!r} declared by {seen[key]} and {mode.name}"
            seen[key] = mode.name
    assert not set(seen) & set(STANDARD[table]), f"{table}: a mode's key in the standard table"
    assert set(seen) == set(declared(table))


def test_the_standard_game_deals_only_its_own_box():
    """The standard answers deal the standard box (its pile, Brick Walls but Jonah's, the 33
    movement cards) and none of the tiles and cards the data lists as a mode's."""
    cat, standard, plain = catalogue(), Points(), pb.Options()
    added = {n for box in cat.added.values() for n in box.pile + box.brick_walls}
    assert added and not added & standard.all_tiles(plain)
    assert standard.room_pile(plain) == [*cat.game.pile, 90, 91]
    assert standard.movement_cards(plain) == list(range(1, 34))
    assert not {c for box in cat.added.values() for c in box.movement} & set(
        standard.movement_cards(plain))


@pytest.mark.parametrize("mode", MODES.all, ids=lambda m: m.name)
def test_a_modes_frames_and_actions_come_with_their_words(mode):
    """Every frame a mode adds is described as a decision kind, every decision it adds has a
    prompt, every refusal reason it raises is described, by the mode itself."""
    for kind in [*mode.decisions, *mode.automatic]:
        assert DECISION_NAMES[kind] in mode.decision_texts, (mode.name, DECISION_NAMES[kind])
    for kind in mode.decisions:
        assert kind in mode.prompts, (mode.name, DECISION_NAMES[kind])
    for action, reason in mode.reasons.items():
        assert reason in mode.reason_texts and action in mode.action_words, (mode.name, action)
    assert set(mode.action_labels) <= set(mode.action_words)


def test_the_game_publishes_the_modes_descriptions():
    """The game's reasons and decision kinds are the standard ones and every mode's."""
    assert GAME.reasons == {**reference.REASONS, **declared("reason_texts")}
    assert list(GAME.decision_kinds) == [*reference.DECISION_KINDS, *declared("decision_texts")]


def violations(folder: Path) -> list[str]:
    """Modules of the folder outside `modes/` that name a frame kind a mode adds, or import
    from `modes/` (`game.py`, the assembly, may import the installed MODES)."""
    added = {pb.FrameKind.Name(k) for m in MODES.all for k in [*m.decisions, *m.automatic]}
    found = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} & added
        found += [f"{path.name} names {kind}" for kind in sorted(named)]
        imports = [(n.module, [a.name for a in n.names]) for n in ast.walk(tree)
                   if isinstance(n, ast.ImportFrom) and n.module
                   and n.module.startswith("parlour.games.murdercastle.modes")]
        if path.name == "game.py":
            imports.remove(("parlour.games.murdercastle.modes", ["MODES"]))
        found += [f"{path.name} imports {module}" for module, _ in imports]
    return found


def test_no_standard_module_names_a_modes_frame_or_imports_a_mode():
    """The frame kinds the modes add appear only in `modes/`; nothing outside it imports it
    but the assembly."""
    assert violations(FOLDER) == []


def test_the_scan_sees_a_modes_frame_and_a_mode_import(tmp_path):
    """The scan finds a mode's frame named and a mode imported in a standard module."""
    (tmp_path / "rules.py").write_text(
        "from parlour.games.murdercastle.modes import automa\n"
        "KIND = pb.FRAME_KIND_JUNCTION_VOTE\n")
    assert violations(tmp_path) == ["rules.py names FRAME_KIND_JUNCTION_VOTE",
                                    "rules.py imports parlour.games.murdercastle.modes"]
