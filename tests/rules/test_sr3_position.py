"""SR3 change of position (sr3.md, Actions per phase):

"Free: … drop prone"; "Simple: … Change position: stand or drop prone; a wounded character stands only on Willpower
(2) + wound modifier."
"""

from __future__ import annotations

import pytest

from rules.combatants import ApplyHarm
from rules.encounter import Side, frozen_map
from rules.errors import OperationError
from rules.history import History, new_history
from rules.systems.sr3 import SYSTEM, Sr3DropProne, Sr3StandUp
from rules.systems.sr3.position import is_prone, stand_up_chance, stand_up_tn
from rules.systems.sr3.system import FREE, SIMPLE
from rules.turns import NextTurn, RollInitiative
from tests.rules.sr3_scenes import add, current_name


def fight() -> tuple[History, dict[str, str]]:
    """Snot (Willpower 4, 9 + 6 = 15) acts first, then Liam (8 + 1 = 9)."""
    history = new_history("sr3", "Alley")
    ids = {"Snot": add(history, "Snot", Side.OPPONENT, reaction=9, willpower=4, body=5),
           "Liam": add(history, "Liam", Side.PLAYER, reaction=8, willpower=3, body=4)}
    history.do(RollInitiative(frozen_map({ids["Snot"]: (6,), ids["Liam"]: (1,)}), frozen_map()))
    return history, ids


def used(history: History, cid: str) -> dict[str, int]:
    return dict(history.state.combatant(cid).actions_used)


def test_dropping_prone_is_a_free_action_and_standing_a_simple_one() -> None:
    history, ids = fight()
    snot = ids["Snot"]
    history.do(Sr3DropProne(snot))
    assert is_prone(history.state.combatant(snot))
    assert used(history, snot) == {FREE: 1}
    assert "Prone" in SYSTEM.condition_notes(history.state.combatant(snot), history.state)
    assert [line.render() for line in history.entries[-1].log] == ["Snot drops prone."]
    with pytest.raises(OperationError, match="already prone"):
        history.do(Sr3DropProne(snot))
    history.do(Sr3StandUp(snot))  # unwounded: "just stands"
    assert not is_prone(history.state.combatant(snot))
    assert used(history, snot) == {FREE: 1, SIMPLE: 1}
    history.undo()
    assert is_prone(history.state.combatant(snot))


def test_a_wounded_character_stands_only_on_willpower_against_2_plus_wounds() -> None:
    history, ids = fight()
    snot = ids["Snot"]
    history.do(Sr3DropProne(snot))
    history.do(ApplyHarm(snot, "physical", 3))  # Moderate: +2 TN
    combatant = history.state.combatant(snot)
    assert stand_up_tn(combatant) == 4
    assert stand_up_chance(combatant) == pytest.approx(1 - 0.5 ** 4)  # 4 dice, each 1 in 2 against 4
    with pytest.raises(OperationError, match="only on Willpower against TN 4"):
        history.do(Sr3StandUp(snot))
    with pytest.raises(OperationError, match="4 dice, to stand up, not 2"):
        history.do(Sr3StandUp(snot, 4, ((5,), (1,))))
    history.do(Sr3StandUp(snot, 4, ((3,), (1,), (2,), (3,))))  # no success: the action is spent, still prone
    assert is_prone(history.state.combatant(snot)) and used(history, snot) == {FREE: 1, SIMPLE: 1}
    assert history.entries[-1].log[0].render() == (
        "Snot fails to stand up (no success on Willpower at TN 4) and stays prone.")
    history.do(Sr3StandUp(snot, 4, ((4,), (1,), (6, 2), (3,))))
    assert not is_prone(history.state.combatant(snot)) and used(history, snot) == {FREE: 1, SIMPLE: 2}
    assert history.entries[-1].log[0].render() == "Snot stands up: 2 successes on Willpower at TN 4."


def test_a_change_of_position_follows_the_phase_budget() -> None:
    history, ids = fight()
    with pytest.raises(OperationError, match="free actions before their first phase"):
        history.do(Sr3DropProne(ids["Liam"]))  # Snot's phase: Liam has not acted yet
    history.do(NextTurn())
    assert current_name(history) == "Liam"
    history.do(Sr3DropProne(ids["Liam"]))
    history.do(NextTurn())  # pass 2: Snot's 5
    assert current_name(history) == "Snot"
    with pytest.raises(OperationError, match=r"only in their own phase\. Standing up takes a simple action\."):
        history.do(Sr3StandUp(ids["Liam"]))


def test_before_initiative_no_action_is_taken() -> None:
    history = new_history("sr3", "Setup")
    liam = add(history, "Liam", Side.PLAYER, reaction=8, willpower=3, body=4)
    history.do(Sr3DropProne(liam))
    assert is_prone(history.state.combatant(liam)) and used(history, liam) == {}
