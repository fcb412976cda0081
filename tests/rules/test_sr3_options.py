"""SR3's encounter options do what the digest says: the optional delaying rule, free actions in other characters'
phases, and the melee tie and reach Decisions (the options, not the data tables, are their source)."""

from __future__ import annotations

import json

import pytest

from rules.combatants import SetOption, SpendAction
from rules.encounter import Encounter, JsonValue
from rules.errors import OperationError
from rules.history import History
from rules.serialize import history_from_document, history_to_document
from rules.systems import get_system
from rules.systems.sr3.damage import DamageCode
from rules.systems.sr3.melee import MeleeFighter, Role, melee_tns, resolve_melee
from rules.systems.sr3.system import tables
from rules.systems.sr3.tables import ReachRule, TieRule, bundled_data
from rules.turns import DelayAction, NextTurn, TakeDelayedAction
from tests.rules.sr3_scenes import current_name, eight_characters, roll_ones

SR3 = get_system("sr3")
KATANA = DamageCode(7, "S")
FISTS = DamageCode(5, "M", stun=True)


def _budget(history: History, combatant_id: str) -> dict[str, tuple[int, int]]:
    combatant = history.state.combatant(combatant_id)
    return {item.key: (item.used, item.allowed) for item in SR3.action_budget(combatant, history.state)}


def _encounter(**options: JsonValue) -> Encounter:
    history = History(Encounter("sr3", "Melee"))
    for key, value in options.items():
        history.do(SetOption(key, value))
    return history.state


# --- Delaying (optional rule: "Odkládání akcí (volitelné)") ---


def test_with_delaying_off_no_delay_of_either_kind_is_allowed() -> None:
    history, ids = eight_characters()
    history.do(SetOption("delaying", False))
    roll_ones(history, ids)
    entries = len(history.entries)
    for into_next_pass in (False, True):
        with pytest.raises(OperationError, match=r"optional rule.*Allow delaying actions \(optional rule\)"):
            history.do(DelayAction(ids["Mike"], into_next_pass))
    assert current_name(history) == "Mike" and not history.state.delays and len(history.entries) == entries


def test_with_delaying_on_mike_delays_and_interrupts_ganger_1() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(SetOption("delaying", True))
    history.do(DelayAction(ids["Mike"]))  # "Hráč může odložit akce ve své bojové fázi"
    assert current_name(history) == "Ganger 1"
    history.do(TakeDelayedAction(ids["Mike"]))
    assert current_name(history) == "Mike"


def test_turning_delaying_on_again_allows_it_at_once() -> None:
    history, ids = eight_characters()
    history.do(SetOption("delaying", False))
    roll_ones(history, ids)
    with pytest.raises(OperationError):
        history.do(DelayAction(ids["Mike"], into_next_pass=True))
    history.do(SetOption("delaying", True))
    history.do(DelayAction(ids["Mike"], into_next_pass=True))
    assert history.state.delays[ids["Mike"]].into_next_pass


# --- Free actions: "one per phase, also in others' phases" (the option turns the second half off) ---


def test_with_free_actions_in_other_phases_off_one_out_of_phase_is_refused() -> None:
    history, ids = eight_characters()
    history.do(SetOption("free_actions_in_other_phases", False))
    roll_ones(history, ids)
    mike = ids["Mike"]
    history.do(SpendAction(mike, "free"))  # in his own phase a free action is still his
    history.do(NextTurn())  # Mike has acted; Ganger 1's phase
    assert _budget(history, mike)["free"] == (0, 0)
    entries = len(history.entries)
    with pytest.raises(OperationError, match=r"another character's phase.*Free actions in other characters' phases"):
        history.do(SpendAction(mike, "free"))
    assert len(history.entries) == entries
    history.do(SpendAction(ids["Ganger 1"], "free"))  # the one whose phase it is


def test_with_free_actions_in_other_phases_on_one_is_allowed_after_acting() -> None:
    history, ids = eight_characters()
    history.do(SetOption("free_actions_in_other_phases", True))
    roll_ones(history, ids)
    history.do(NextTurn())
    assert _budget(history, ids["Mike"])["free"][1] > 0
    history.do(SpendAction(ids["Mike"], "free"))  # "dokonce i když se nejedná o její bojovou fázi"
    assert history.state.combatant(ids["Mike"]).actions_used["free"] == 1


def test_free_actions_off_leaves_the_own_phase_budget_alone() -> None:
    history, ids = eight_characters()
    history.do(SetOption("free_actions_in_other_phases", False))
    roll_ones(history, ids)
    history.do(SpendAction(ids["Mike"], "simple"))
    assert _budget(history, ids["Mike"]) == {"free": (0, 2), "simple": (1, 2), "complex": (0, 0)}


# --- Melee Decisions: "a tie hurts nobody (default) or deals base damage"; reach "per point −1 for the longer
# reach or +1 for the other: GM's option" ---


def test_melee_tie_nobody_hurts_nobody() -> None:
    outcome = resolve_melee(3, 3, KATANA, FISTS, tables=tables(_encounter(melee_tie="nobody")))
    assert (outcome.winner, outcome.hit, outcome.damage) == (None, None, None)


def test_melee_tie_attacker_deals_base_damage() -> None:
    rules = tables(_encounter(melee_tie="attacker"))
    outcome = resolve_melee(3, 3, KATANA, FISTS, tables=rules)
    assert (outcome.winner, outcome.net, outcome.hit, outcome.damage) == (None, 0, Role.DEFENDER, KATANA)
    assert resolve_melee(0, 0, KATANA, FISTS, tables=rules).hit is None  # no successes at all: a miss


@pytest.mark.parametrize(("mode", "longer_attacker", "longer_defender"), [
    ("bonus", (2, 4), (4, 3)),  # −1 TN per point for the one with the longer reach
    ("penalty", (4, 6), (5, 4)),  # +1 TN per point for the other
])
def test_reach_mode(mode: str, longer_attacker: tuple[int, int], longer_defender: tuple[int, int]) -> None:
    rules = tables(_encounter(reach_mode=mode))
    attacker, defender = melee_tns(MeleeFighter(reach=2), MeleeFighter(), rules)
    assert (attacker.value, defender.value) == longer_attacker
    attacker, defender = melee_tns(MeleeFighter(), MeleeFighter(reach=1), rules)
    assert (attacker.value, defender.value) == longer_defender


def test_the_melee_options_are_the_rules_only_source() -> None:
    melee = bundled_data()["melee"]
    assert isinstance(melee, dict) and "tie_rule" not in melee and "reach_rule" not in melee
    specs = {spec.key: spec for spec in SR3.option_specs()}
    assert {value for value, _label in specs["melee_tie"].choices} == {rule.value for rule in TieRule}
    assert {value for value, _label in specs["reach_mode"].choices} == {rule.value for rule in ReachRule}
    assert tables(Encounter("sr3")).melee.tie_rule is TieRule(str(specs["melee_tie"].default))
    assert tables(Encounter("sr3")).melee.reach_rule is ReachRule(str(specs["reach_mode"].default))


# --- Fights saved while the tables held melee.tie_rule / melee.reach_rule ---

LEGACY: JsonValue = {"melee": {"tie_rule": "attacker", "reach_rule": "penalty"}}


def test_a_legacy_tables_override_is_honoured_while_the_options_are_at_their_defaults() -> None:
    rules = tables(_encounter(tables=LEGACY))
    assert (rules.melee.tie_rule, rules.melee.reach_rule) == (TieRule.ATTACKER, ReachRule.PENALTY)
    assert resolve_melee(3, 3, KATANA, FISTS, tables=rules).hit is Role.DEFENDER


def test_an_option_the_gm_changed_beats_a_legacy_tables_override() -> None:
    rules = tables(_encounter(tables={"melee": {"tie_rule": "nobody", "reach_rule": "bonus"}},
                              melee_tie="attacker", reach_mode="penalty"))
    assert (rules.melee.tie_rule, rules.melee.reach_rule) == (TieRule.ATTACKER, ReachRule.PENALTY)


@pytest.mark.parametrize("trusted", [True, False], ids=["as-saved", "edited"])
def test_a_fight_saved_with_a_legacy_override_opens_and_keeps_it(trusted: bool) -> None:
    history, ids = eight_characters()
    history.do(SetOption("tables", LEGACY))
    roll_ones(history, ids)
    history.do(NextTurn())
    document = json.loads(json.dumps(history_to_document(history)))
    reopened = history_from_document(document, trusted)
    assert tables(reopened.state).melee.tie_rule is TieRule.ATTACKER
    while reopened.can_undo:  # every saved step replays and matches
        reopened.undo()
    assert not reopened.state.options
