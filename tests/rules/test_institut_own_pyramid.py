"""A character's own life pyramid (institut.md "Life pyramid": "editable per character (number of classes, names,
thresholds and boxes)"), with the wound flow for any number of classes: "A wound goes to the first free box of its
class; a full row passes it to the next heavier class"; penalties "by the worst filled class"; "a filled Mortal box
means dying" (here: a box of the heaviest class)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.combatants import ApplyHarm
from rules.encounter import Status
from rules.errors import RulesError
from rules.history import History
from rules.systems.institut import InstitutAttack, SetPyramid
from rules.systems.institut.combat import Defence
from rules.systems.institut.system import pyramid_for, wound_penalty
from rules.systems.institut.tables import load_tables
from tests.every_game import check_reopened, saved_and_reopened
from tests.rules.test_institut_rules import started
from tests.rules.test_institut_scenes import INSTITUT

#: Scratch 5–11 (2 boxes), Wound 12–19 (2 boxes, −1), Death 20+ (1 box, −2).
THREE = ((5, 2, 0), (12, 2, 1), (20, 1, 2))
NAMES = ("Scratch", "Wound", "Death")


def boxes(history: History, cid: str) -> list[int]:
    combatant = history.state.combatant(cid)
    return [combatant.boxes(key) for key in pyramid_for(combatant, history.state).keys]


def test_the_default_table_is_the_digests() -> None:
    """Light / Medium / Heavy / Critical / Mortal from 5 / 10 / 15 / 20 / 25, boxes 4 / 3 / 2 / 1 / 1, penalties
    Medium −1, Heavy −2, Critical −3."""
    pyramid = load_tables().pyramid
    assert [(c.label, c.entered_at, c.boxes) for c in pyramid.classes] == [
        ("Light", 5, 4), ("Medium", 10, 3), ("Heavy", 15, 2), ("Critical", 20, 1), ("Mortal", 25, 1)]
    assert [c.penalty for c in pyramid.classes[:4]] == [0, 1, 2, 3]  # Mortal's: none given (dying acts not at all)
    assert pyramid.classify(4) is None and pyramid.classify(25) == "mortal"


def test_three_named_classes_take_wounds_pass_full_rows_on_and_dying_is_the_heaviest() -> None:
    history, ids = started()
    bandit = ids["Bandit 1"]
    applied = history.do(SetPyramid(bandit, THREE, NAMES))
    assert applied.log[0].render() == "Bandit 1 gets a life pyramid of their own."
    tracks = INSTITUT.tracks(history.state.combatant(bandit), history.state)
    assert [(t.label, t.size) for t in tracks] == [("Scratch", 2), ("Wound", 2), ("Death", 1)]
    hit = InstitutAttack(ids["Sokolov"], bandit, "Makarov", (6, 6), Defence.DIFFICULTY.value, difficulty=5,
                         damage_rolls=((6, 6, 1),))  # 13: Wound
    text = [line.render() for line in history.do(hit).log]
    assert "13 points: Bandit 1 takes 1 Wound wound." in text
    assert boxes(history, bandit) == [0, 1, 0]
    assert wound_penalty(history.state.combatant(bandit), history.state) == 1  # the worst filled class: Wound
    history.do(ApplyHarm(bandit, "class2", 2))  # one fills the row, the next passes on to Death
    assert boxes(history, bandit) == [0, 2, 1]
    assert INSTITUT.status(history.state.combatant(bandit), history.state) is Status.DYING
    notes = " ".join(INSTITUT.condition_notes(history.state.combatant(bandit), history.state))
    assert "Dying: a box of the Death class is filled" in notes  # the heaviest class by its own name
    assert INSTITUT.condition_summary(history.state.combatant(bandit), history.state) == "Deat 1/1 · Woun 2/2"


def test_seven_classes_pass_a_wound_through_every_full_row() -> None:
    history, ids = started()
    vera = ids["Vera"]
    rows = tuple((5 * (n + 1), 1, n) for n in range(7))
    history.do(SetPyramid(vera, rows, tuple(f"Level {n}" for n in range(1, 8))))
    history.do(ApplyHarm(vera, "class1", 6))
    assert boxes(history, vera) == [1, 1, 1, 1, 1, 1, 0]
    assert wound_penalty(history.state.combatant(vera), history.state) == 5
    assert INSTITUT.status(history.state.combatant(vera), history.state) is Status.ACTIVE
    history.do(ApplyHarm(vera, "class3", 1))
    assert boxes(history, vera) == [1, 1, 1, 1, 1, 1, 1]
    assert INSTITUT.status(history.state.combatant(vera), history.state) is Status.DYING


def test_wounds_move_class_by_class_to_the_new_rows_and_undo_brings_them_back() -> None:
    history, ids = started()
    vera = ids["Vera"]
    history.do(ApplyHarm(vera, "light", 3))
    history.do(ApplyHarm(vera, "medium", 1))
    history.do(SetPyramid(vera, THREE, NAMES))  # 3 Light → Scratch (2 boxes: one passes on), 1 Medium → Wound
    assert boxes(history, vera) == [2, 2, 0]
    history.undo()
    combatant = history.state.combatant(vera)
    assert [combatant.boxes(key) for key in ("light", "medium", "heavy")] == [3, 1, 0]


@pytest.mark.parametrize(("rows", "names", "message"), [
    (THREE, ("Scratch", "", "Death"), "Class 2 needs a name"),
    (THREE, ("Scratch", "scratch", "Death"), "Two classes are named scratch"),
    (((5, 2, 0), (5, 2, 1), (20, 1, 2)), NAMES, "Wound: the damage that enters it must be above"),
    (((5, 0, 0), (12, 2, 1), (20, 1, 2)), NAMES, "Scratch: a row holds 1 to 20 boxes"),
    (tuple((n + 1, 1, 0) for n in range(11)), tuple(f"C{n}" for n in range(11)), "1 to 10 classes"),
])
def test_a_pyramid_the_rules_cannot_use_is_refused_saying_what_to_fix(rows: tuple[tuple[int, int, int], ...],
                                                                      names: tuple[str, ...], message: str) -> None:
    history, ids = started()
    with pytest.raises(RulesError, match=message):
        history.do(SetPyramid(ids["Vera"], rows, names))


def test_a_named_pyramid_is_saved_and_reopened(tmp_path: Path) -> None:
    history, ids = started()
    history.do(SetPyramid(ids["Vera"], THREE, NAMES))
    history.do(ApplyHarm(ids["Vera"], "class2", 1))
    reopened = saved_and_reopened(history, tmp_path / "fight.bojovka", sealed=True)
    check_reopened(history, reopened)
    assert pyramid_for(reopened.state.combatant(ids["Vera"]), reopened.state).names() == NAMES
