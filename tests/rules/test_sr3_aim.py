"""sr3.md, Actions per phase: "Aim: −1 TN each, cumulative over phases and passes up to ½ the skill or
specialisation (round down); lost on any other action, free ones included. «Postavy, které míří během více bojových
fází, nesmí za žádných okolností … použít rezervy kostek» (aiming over several phases: no pool dice at all); using
them loses the aim." Driven through the history on the seed's eight characters (Mike 37 → 27 → 17 → 7)."""

from __future__ import annotations

import json

import pytest

from rules.combatants import SpendAction
from rules.encounter import Weapon
from rules.errors import OperationError
from rules.history import History
from rules.serialize import history_from_document, history_to_document
from rules.systems.sr3 import Sr3Aim, Sr3Attack, Sr3LoseAim
from rules.systems.sr3.aim import NO_AIM, Aim, aim_of, aim_skill
from rules.turns import NextTurn
from tests.rules.sr3_scenes import current_name, eight_characters, roll_ones


def _fight() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    assert current_name(history) == "Mike"
    return history, ids


def _to_pass(history: History, pass_no: int, name: str) -> None:
    while (history.state.clock.pass_no, current_name(history)) != (pass_no, name):
        history.do(NextTurn())


def _shot(ids: dict[str, str], aim_actions: int, pool: int) -> Sr3Attack:
    """Mike's Predator (9M) at Ganger 1, TN 4 − aim; skill 4 dice plus ``pool`` from the combat pool."""
    faces = ((6,), (6,), (5,), (2,)) + ((3,),) * pool
    return Sr3Attack(ids["Mike"], ids["Ganger 1"], "Ares Predator", 9, "M", max(2, 4 - aim_actions), faces, 5,
                     ((1,),) * 4, attack_pool=pool, mode="SA", aim_actions=aim_actions)


def _aimed_over_two_phases() -> tuple[History, dict[str, str]]:
    """Mike aims once in phase 37 of pass 1 and once in phase 27 of pass 2."""
    history, ids = _fight()
    history.do(Sr3Aim(ids["Mike"]))
    _to_pass(history, 2, "Mike")
    history.do(Sr3Aim(ids["Mike"]))
    return history, ids


def _mike(history: History, ids: dict[str, str]) -> Aim:
    return aim_of(history.state.combatant(ids["Mike"]))


def test_aim_accumulates_over_phases_and_passes() -> None:
    history, ids = _aimed_over_two_phases()
    aim = _mike(history, ids)
    assert (aim.actions, aim.phases) == (2, 2) and aim.over_several_phases
    lines = [line for entry in history.entries for line in entry.text().splitlines()]
    assert "Mike aims: 2 simple actions of aiming in all." in lines
    assert ("Mike has aimed over several phases: the shot may use no combat pool dice, or the aim is lost."
            in lines)


def test_two_aims_in_one_phase_are_one_phase() -> None:
    history, ids = _fight()
    history.do(Sr3Aim(ids["Mike"]))
    history.do(Sr3Aim(ids["Mike"]))  # two simple actions: the whole phase
    aim = _mike(history, ids)
    assert (aim.actions, aim.phases) == (2, 1) and not aim.over_several_phases
    with pytest.raises(OperationError, match="no simple action left"):
        history.do(Sr3Aim(ids["Mike"]))


def test_aim_over_two_phases_with_pool_dice_is_refused() -> None:
    history, ids = _aimed_over_two_phases()
    entries = len(history.entries)
    with pytest.raises(OperationError, match="aimed over several phases: no combat pool dice"):
        history.do(_shot(ids, aim_actions=2, pool=2))
    assert len(history.entries) == entries and _mike(history, ids).actions == 2


def test_aim_over_two_phases_lost_when_pool_dice_are_used() -> None:
    """"using them loses the aim": the shot counts no aim (TN 4, not 2) and the log says why."""
    history, ids = _aimed_over_two_phases()
    history.do(_shot(ids, aim_actions=0, pool=2))
    assert _mike(history, ids) == NO_AIM
    assert history.state.combatant(ids["Mike"]).pools["combat"].spent == 2
    text = history.entries[-1].text()
    assert "Mike uses combat pool dice after aiming over several phases: the aim is lost." in text
    assert "at TN 4" in text


def test_aim_over_two_phases_without_pool_dice_counts_and_ends_with_the_shot() -> None:
    history, ids = _aimed_over_two_phases()
    history.do(_shot(ids, aim_actions=2, pool=0))
    assert _mike(history, ids) == NO_AIM  # used by the shot
    assert "Mike: 4 successes at TN 2." in history.entries[-1].text()


def test_aim_in_one_phase_allows_pool_dice_in_the_next() -> None:
    history, ids = _fight()
    history.do(Sr3Aim(ids["Mike"]))
    _to_pass(history, 2, "Mike")
    history.do(_shot(ids, aim_actions=1, pool=2))  # aimed in one phase (37) only
    assert _mike(history, ids) == NO_AIM


@pytest.mark.parametrize(("skill", "cap"), [(4, 2), (5, 2), (6, 3), (1, 0)])
def test_aim_is_capped_at_half_the_skill_round_down(skill: int, cap: int) -> None:
    history, ids = _fight()
    for _aim in range(cap):
        if history.state.combatant(ids["Mike"]).actions_used.get("simple", 0) == 2:
            history.do(NextTurn())
            _to_pass(history, history.state.clock.pass_no + 1, "Mike")
        history.do(Sr3Aim(ids["Mike"], skill=skill))
    with pytest.raises(OperationError, match="already aims as far as it helps"):
        history.do(Sr3Aim(ids["Mike"], skill=skill))
    assert _mike(history, ids).actions == cap


def test_the_cap_reads_the_skill_saved_with_a_ranged_weapon() -> None:
    history, ids = _fight()
    mike = history.state.combatant(ids["Mike"])
    from dataclasses import replace

    armed = replace(mike, weapons=(Weapon("Ares Predator", {"damage": "9M", "skill": 5}),
                                   Weapon("Knife", {"damage": "(STR)L", "kind": "melee", "skill": 8})))
    assert aim_skill(armed) == 5 and aim_skill(mike) is None
    assert Aim(4, 2, 1, 2).counted(5) == 2 and Aim(1, 1, 1, 1).counted(5) == 1


@pytest.mark.parametrize("kind", ["free", "simple"])
def test_any_other_action_free_ones_included_loses_the_aim(kind: str) -> None:
    history, ids = _fight()
    history.do(Sr3Aim(ids["Mike"]))
    history.do(SpendAction(ids["Mike"], kind))
    assert _mike(history, ids) == NO_AIM


def test_the_gm_may_say_the_aim_is_lost_and_undo_it() -> None:
    history, ids = _aimed_over_two_phases()
    history.do(Sr3LoseAim(ids["Mike"]))
    assert _mike(history, ids) == NO_AIM
    assert history.entries[-1].text() == "Mike's aim is lost."
    history.undo()
    assert _mike(history, ids).actions == 2
    with pytest.raises(OperationError, match="is not aiming"):
        history.do(Sr3LoseAim(ids["Ganger 1"]))


def test_aiming_takes_an_action_of_the_own_phase() -> None:
    history, ids = _fight()
    with pytest.raises(OperationError, match="only in their own phase"):
        history.do(Sr3Aim(ids["Dave"]))


def test_an_aim_is_undone_and_saved_with_the_fight() -> None:
    history, ids = _aimed_over_two_phases()
    reopened = history_from_document(json.loads(json.dumps(history_to_document(history))))
    assert _mike(reopened, ids) == _mike(history, ids)
    history.undo()
    aim = _mike(history, ids)
    assert (aim.actions, aim.phases) == (1, 1)
