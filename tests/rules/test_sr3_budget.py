"""SR3's per-phase action budget, pools that refresh each combat turn, and GM options."""

from __future__ import annotations

import pytest

from rules.combatants import SetAttribute, SetOption, SetPool, SpendAction, SpendPool
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.systems import get_system
from rules.turns import NextTurn
from tests.rules.sr3_scenes import eight_characters, roll_ones

SR3 = get_system("sr3")


def _budget(history: History, combatant_id: str) -> dict[str, tuple[int, int]]:
    combatant = history.state.combatant(combatant_id)
    return {item.key: (item.used, item.allowed) for item in SR3.action_budget(combatant, history.state)}


def test_two_simple_actions_or_one_complex() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    mike = ids["Mike"]
    history.do(SpendAction(mike, "simple"))
    assert _budget(history, mike) == {"free": (0, 2), "simple": (1, 2), "complex": (0, 0)}
    history.do(SpendAction(mike, "simple"))
    with pytest.raises(OperationError, match="no simple action left"):
        history.do(SpendAction(mike, "simple"))
    history.do(SpendAction(mike, "free"))
    with pytest.raises(OperationError):
        history.do(SpendAction(mike, "free"))  # the swap is used up by two simple actions


def test_complex_action_leaves_only_a_free_one() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(SpendAction(ids["Mike"], "complex"))
    assert _budget(history, ids["Mike"]) == {"free": (0, 1), "simple": (0, 0), "complex": (1, 1)}


def test_free_actions_in_other_phases_only_after_acting() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    with pytest.raises(OperationError, match="before their first phase"):
        history.do(SpendAction(ids["Dave"], "free"))
    history.do(NextTurn())  # Mike has acted; now Ganger 1's phase
    history.do(SpendAction(ids["Mike"], "free"))
    with pytest.raises(OperationError, match="only in their own phase"):
        history.do(SpendAction(ids["Mike"], "simple"))


def test_budget_resets_each_phase() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(SpendAction(ids["Mike"], "complex"))
    while history.state.clock.pass_no == 1:
        history.do(NextTurn())
    assert _budget(history, ids["Mike"])["complex"] == (0, 1)


def test_combat_pool_formula_and_gm_override() -> None:
    history, ids = eight_characters()
    mike = history.state.combatant(ids["Mike"])
    assert mike.pools["combat"].size == (4 + 4 + 4) // 2
    history.do(SetAttribute(ids["Mike"], "quickness", 7))
    assert history.state.combatant(ids["Mike"]).pools["combat"].size == (7 + 4 + 4) // 2
    history.do(SetAttribute(ids["Mike"], "combat_pool", 9))
    assert history.state.combatant(ids["Mike"]).pools["combat"].size == 9
    history.do(SetPool(ids["Mike"], "karma", 3))
    assert history.state.combatant(ids["Mike"]).pools["karma"].size == 3


def test_pool_spending_is_recorded_and_refreshes_next_turn() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(SpendPool(ids["Dave"], "combat", 4, "dodge"))
    with pytest.raises(OperationError, match="only 2 dice left"):
        history.do(SpendPool(ids["Dave"], "combat", 3))
    while history.state.clock.current is not None:
        history.do(NextTurn())
    assert history.state.combatant(ids["Dave"]).pools["combat"].spent == 4  # until the next turn starts
    roll_ones(history, ids)
    assert history.state.combatant(ids["Dave"]).pools["combat"].spent == 0


def test_options_are_validated() -> None:
    history, _ids = eight_characters()
    history.do(SetOption("melee_tie", "attacker"))
    assert SR3.option(history.state, "melee_tie") == "attacker"
    with pytest.raises(RulesError):
        history.do(SetOption("melee_tie", "maybe"))
    with pytest.raises(OperationError):
        history.do(SetOption("no_such_option", True))


def test_gm_tables_override_reaches_the_rules() -> None:
    history, ids = eight_characters()
    with pytest.raises(RulesError, match="SR3 data"):
        history.do(SetOption("tables", {"pools": {"combat_pool_divisor": "two"}}))
    history.do(SetOption("tables", {"pools": {"combat_pool_divisor": 3}}))
    history.do(SetAttribute(ids["Mike"], "quickness", 6))
    assert history.state.combatant(ids["Mike"]).pools["combat"].size == (6 + 4 + 4) // 3


def test_grunt_group_rolls_once_and_can_share_a_monitor() -> None:
    from rules.combatants import AddCombatant, ApplyHarm
    from rules.dice import Roller
    from rules.encounter import Encounter, Side, frozen_map
    from rules.history import Batch
    from rules.turns import roll_initiative

    history = History(Encounter("sr3"))
    adds = tuple(AddCombatant(f"g{i}", f"Ganger {i}", Side.OPPONENT, frozen_map({"reaction": 4}), group="gang",
                              extra=frozen_map({"shared_monitor": True})) for i in (1, 2, 3))
    history.do(Batch(adds, "Ganger ×3"))
    assert len(history.entries) == 1 and len(history.state.combatants) == 3
    operation = roll_initiative(history.state, SR3, Roller.seeded(7))
    assert len({operation.rolls[f"g{i}"] for i in (1, 2, 3)}) == 1
    history.do(ApplyHarm("g2", "stun", 3))
    assert {history.state.combatant(f"g{i}").boxes("stun") for i in (1, 2, 3)} == {3}
    assert SR3.condition_notes(history.state.combatant("g1"), history.state) == ["TN +2, initiative −2"]
    history.undo()
    assert {history.state.combatant(f"g{i}").boxes("stun") for i in (1, 2, 3)} == {0}


def test_a_roll_typed_for_any_group_member_is_the_groups_roll() -> None:
    from rules.combatants import AddCombatant
    from rules.dice import Roller
    from rules.encounter import Encounter, Side, frozen_map
    from rules.turns import roll_initiative

    history = History(Encounter("sr3"))
    for number in (1, 2, 3):
        history.do(AddCombatant(f"g{number}", f"Ganger {number}", Side.OPPONENT, frozen_map({"reaction": 4}),
                                group="gang"))
    operation = roll_initiative(history.state, SR3, Roller.seeded(7), typed={"g2": (6,)})
    assert {operation.rolls[f"g{n}"] for n in (1, 2, 3)} == {(6,)}
