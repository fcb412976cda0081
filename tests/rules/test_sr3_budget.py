"""SR3's per-phase action budget, pools that refresh each combat turn, and GM options."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.combatants import ApplyHarm, SetAttribute, SetOption, SetPool, SpendAction, SpendPool
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.systems import get_system
from rules.systems.sr3 import Sr3Attack
from rules.turns import NextTurn
from tests.rules.sr3_scenes import add, eight_characters, roll_ones
from tests.rules.test_sr3_scripted_fight import chains

SR3 = get_system("sr3")


def _budget(history: History, combatant_id: str) -> dict[str, tuple[int, int]]:
    combatant = history.state.combatant(combatant_id)
    return {item.key: (item.used, item.allowed) for item in SR3.action_budget(combatant, history.state)}


def test_two_simple_actions_or_one_complex() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    mike = ids["Mike"]
    history.do(SpendAction(mike, "simple"))
    assert history.entries[-1].text() == "Mike takes a simple action."
    assert _budget(history, mike) == {"free": (0, 2), "simple": (1, 2), "complex": (0, 0)}
    history.do(SpendAction(mike, "simple"))
    with pytest.raises(OperationError, match="no simple action left"):
        history.do(SpendAction(mike, "simple"))
    history.do(SpendAction(mike, "free"))
    assert history.entries[-1].text() == "Mike takes a free action."
    with pytest.raises(OperationError):
        history.do(SpendAction(mike, "free"))  # the swap is used up by two simple actions


def test_complex_action_leaves_only_a_free_one() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(SpendAction(ids["Mike"], "complex"))
    assert history.entries[-1].text() == "Mike takes a complex action."
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


def test_each_simple_action_not_taken_may_be_a_free_one_in_the_own_phase() -> None:
    """"Místo jednoduché akce je možné také provést volnou akci": no limit of one swap, so three free actions."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    mike = ids["Mike"]
    assert _budget(history, mike) == {"free": (0, 3), "simple": (0, 2), "complex": (0, 1)}
    for _swap in range(3):
        history.do(SpendAction(mike, "free"))
    assert _budget(history, mike) == {"free": (3, 3), "simple": (0, 0), "complex": (0, 0)}
    with pytest.raises(OperationError, match="no free action left"):
        history.do(SpendAction(mike, "free"))
    with pytest.raises(OperationError, match="no simple action left"):
        history.do(SpendAction(mike, "simple"))


def test_one_free_action_in_another_characters_phase() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(NextTurn())  # Ganger 1's phase: Mike has acted
    assert _budget(history, ids["Mike"])["free"] == (0, 1)
    history.do(SpendAction(ids["Mike"], "free"))
    with pytest.raises(OperationError, match="no free action left"):
        history.do(SpendAction(ids["Mike"], "free"))


def test_no_phase_this_turn_means_no_free_actions_in_any_pass() -> None:
    """The digest's Decision: an initiative of 0 or less this turn gives no phase, so no free action either."""
    history, ids = eight_characters()
    slow = add(history, "Slow", reaction=1, reaction_natural=1, initiative_dice=1, body=4)
    history.do(ApplyHarm(slow, "physical", 3))  # a Moderate wound: initiative −2, so 1 + 1 − 2 = 0
    roll_ones(history, {**ids, "Slow": slow})
    while history.state.clock.pass_no == 1:
        history.do(NextTurn())
    with pytest.raises(OperationError, match="no phase this turn"):
        history.do(SpendAction(slow, "free"))
    history.do(SpendAction(ids["Camilla"], "free"))  # she had her phase in the first pass
    assert _budget(history, slow)["free"] == (0, 0)
    history.do(SetOption("free_actions_need_a_phase", False))  # the GM's choice
    assert _budget(history, slow)["free"] == (0, 1)
    history.do(SpendAction(slow, "free"))


def test_budget_resets_each_phase() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(SpendAction(ids["Mike"], "complex"))
    while history.state.clock.pass_no == 1:
        history.do(NextTurn())
    assert _budget(history, ids["Mike"])["complex"] == (0, 1)


# --- an attack takes its action (the digest's "Actions per phase" and firing modes) ---------------------------


def _shot(ids: dict[str, str], target: str, mode: str | None, rounds: int = 1, tn: int = 4, code: str = "9M",
          shooter: str = "Mike") -> Sr3Attack:
    """A shot that misses (every die a 1) from ``shooter``: only what it costs matters here."""
    return Sr3Attack(ids[shooter], ids[target], "AK-97", int(code[:-1]), code[-1], tn, chains(1, 1), 4, chains(1),
                     mode=mode, rounds=rounds)


def test_a_semi_automatic_shot_takes_a_simple_action_and_a_third_is_refused_with_the_rule() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    mike = ids["Mike"]
    history.do(_shot(ids, "Ganger 1", "SA"))
    assert _budget(history, mike) == {"free": (0, 2), "simple": (1, 2), "complex": (0, 0)}
    history.do(_shot(ids, "Ganger 1", "SA"))  # SA: two shots a phase, each a simple action
    with pytest.raises(OperationError) as refused:
        history.do(_shot(ids, "Ganger 1", "SA"))
    assert str(refused.value) == (
        "Mike has no simple action left in this phase. A phase allows two simple actions or one complex action, "
        "plus one free action; a shot in SA mode is a simple action. The GM may still record the attack as taking "
        "no action.")
    history.do(_shot(ids, "Ganger 1", None))  # the GM's call: an attack that takes no action
    assert _budget(history, mike)["simple"] == (2, 2)
    history.undo()
    history.undo()  # undoing a shot gives its action back
    assert _budget(history, mike)["simple"] == (1, 2)


def test_a_single_shot_weapon_fires_once_a_phase_and_a_gun_in_the_other_hand_once_too() -> None:
    """"SS: simple, once per phase" (a gun in each hand: both once); the GM may record more as no action."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(_shot(ids, "Ganger 1", "SS"))
    with pytest.raises(OperationError, match=r"already fired AK-97 in this phase.*once a phase"):
        history.do(_shot(ids, "Ganger 1", "SS"))
    history.do(replace(_shot(ids, "Ganger 1", "SS"), weapon="Taser"))  # the gun in the other hand
    history.do(_shot(ids, "Ganger 1", None))  # the GM's call
    history.do(NextTurn())
    while history.state.clock.current is not None and history.state.clock.current.ids != (ids["Mike"],):
        history.do(NextTurn())
    history.do(_shot(ids, "Ganger 1", "SS"))  # Mike's next phase: the weapon fires again


def test_a_called_shot_takes_a_free_action_besides_the_shots_own() -> None:
    """"Called shot: free action, +4"."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    mike = ids["Mike"]
    history.do(replace(_shot(ids, "Ganger 1", "SA"), called_shot=True))
    assert _budget(history, mike) == {"free": (1, 2), "simple": (1, 2), "complex": (0, 0)}
    assert "A called shot (+4 TN, a free action)." in history.entries[-1].text()
    # A second called shot would take a second free action, swapped for the simple action the shot needs.
    with pytest.raises(OperationError, match="no simple action left"):
        history.do(replace(_shot(ids, "Ganger 1", "SA"), called_shot=True))
    history.do(_shot(ids, "Ganger 1", "SA"))
    with pytest.raises(OperationError, match="A called shot takes a free action"):
        history.do(replace(_shot(ids, "Ganger 1", "SA"), called_shot=True))
    history.do(replace(_shot(ids, "Ganger 1", None), called_shot=True))  # the GM's call: no action taken


def test_a_burst_is_a_simple_action_and_never_goes_with_a_complex_one() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(_shot(ids, "Ganger 1", "BF", rounds=3))
    with pytest.raises(OperationError, match=r"no complex action left.*full-auto fire is a complex action"):
        history.do(_shot(ids, "Ganger 2", "FA", rounds=5))
    history.do(_shot(ids, "Ganger 2", "BF", rounds=3))  # at most two bursts a phase: the two simple actions
    assert _budget(history, ids["Mike"])["simple"] == (2, 2)


def test_wedges_full_auto_at_three_punks_is_one_complex_action_of_ten_rounds() -> None:
    """AK-97 8M: 3 rounds at punk 1 (TN 3, 11S), 3 at punk 2 (TN 7, 11S), 4 at punk 3 (TN 13, 12S)."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    mike = ids["Mike"]
    history.do(_shot(ids, "Ganger 1", "FA", rounds=3, tn=3, code="11S"))
    assert _budget(history, mike) == {"free": (0, 1), "simple": (0, 0), "complex": (1, 1)}
    history.do(_shot(ids, "Ganger 2", "FA", rounds=3, tn=7, code="11S"))
    history.do(_shot(ids, "Ganger 3", "FA", rounds=4, tn=13, code="12S"))
    assert _budget(history, mike)["complex"] == (1, 1)  # still the one complex action
    with pytest.raises(OperationError, match=r"fired 10 rounds full auto in this phase.*at most 10 rounds a phase"):
        history.do(_shot(ids, "Ganger 1", "FA", rounds=3))
    with pytest.raises(OperationError, match="no simple action left"):
        history.do(_shot(ids, "Ganger 1", "SA"))  # never a simple action with a complex one
    history.do(NextTurn())
    while history.state.clock.current is None or mike not in history.state.clock.current.ids:
        history.do(NextTurn())
    assert history.state.clock.pass_no == 2  # Mike's phase 27
    history.do(_shot(ids, "Ganger 1", "FA", rounds=10))  # a new phase: a new complex action


def test_a_shot_outside_the_own_phase_takes_no_action_or_is_refused() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    with pytest.raises(OperationError, match=r"only in their own phase.*simple action"):
        history.do(_shot(ids, "Mike", "SS", shooter="Dave"))
    history.do(_shot(ids, "Mike", None, shooter="Dave"))  # e.g. an interception, recorded as taking no action
    assert _budget(history, ids["Dave"])["simple"] == (0, 2)
    with pytest.raises(OperationError, match="Unknown firing mode"):
        history.do(_shot(ids, "Mike", "XX"))


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
