"""SR3: a damage code typed in the Damage dialog is resisted by each target on its own (sr3.md, "Grenades":
everyone in the blast resists separately, with their own impact armor; "Ranged combat" step 5: Body + pool dice
left against Power − armor, never below 2; step 6: every 2 successes stage the level one down, below L nothing).
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from rules.encounter import Encounter, Pool, frozen_map
from rules.errors import RulesError
from rules.history import History
from rules.serialize import operation_from_data, to_data
from rules.systems import get_system
from rules.systems.sr3.odds import successes_distribution
from rules.systems.sr3.resistance import Sr3Resistance, Sr3ResistHit
from rules.systems.sr3.system import COMBAT_POOL

SR3 = get_system("sr3")


def _history() -> History:
    return SR3.sample()


def _ganger(state: Encounter, number: int, **attributes: int) -> Encounter:
    """Ganger ``number`` of the sample (Body 4, impact armor 0) with ``attributes`` changed."""
    ganger = next(c for c in state.combatants.values() if c.name == f"Ganger {number}")
    changed = replace(ganger, attributes=frozen_map({**ganger.attributes, **attributes}))
    return state.with_combatant(changed)


def _roll(state: Encounter, name: str, typed: str, track: str = "physical") -> Sr3Resistance:
    combatant = next(c for c in state.combatants.values() if c.name == name)
    roll = SR3.own_roll(typed, combatant, track, state)
    assert isinstance(roll, Sr3Resistance)
    return roll


def test_each_target_resists_a_blast_with_its_own_body_and_impact_armor() -> None:
    state = _ganger(_ganger(_history().state, 2, impact=3), 3, body=6, impact=12)
    two, three = _roll(state, "Ganger 2", "10S"), _roll(state, "Ganger 3", "10S")
    assert (two.tn, two.body, two.level, two.power) == (7, 4, "S", 10)
    assert two.label == "Body 4 dice against TN 7 (10S − impact armor 3)"
    assert (three.tn, three.body) == (2, 6)  # 10 − 12 is below the minimum TN of 2
    expression = two.expression(2)
    assert expression is not None and expression.label() == "6d6 TN 7"


def test_the_odds_stage_the_level_down_by_two_successes_each() -> None:
    roll = replace(_roll(_history().state, "Ganger 2", "9S"), tn=4)  # 4 dice at TN 4: each succeeds half the time
    by_outcome = dict(roll.odds(0))
    # 0–1 successes: Serious; 2–3: Moderate; 4: Light (1/16 + 4/16, 6/16 + 4/16, 1/16).
    assert by_outcome == pytest.approx({"Serious": 5 / 16, "Moderate": 10 / 16, "Light": 1 / 16})
    assert list(by_outcome) == ["Serious", "Moderate", "Light"]  # heaviest first
    exact = successes_distribution(4, 4, exact=True)
    assert exact[0] + exact[1] == Fraction(5, 16)


def test_enough_successes_stage_a_light_wound_away() -> None:
    roll = replace(_roll(_history().state, "Ganger 2", "2L"), tn=2)
    odds = dict(roll.odds(2))
    assert set(odds) == {"Light", "No damage"} and sum(odds.values()) == pytest.approx(1.0)


def test_a_level_alone_boxes_and_healing_are_not_resisted() -> None:
    state = _history().state
    ganger = next(c for c in state.combatants.values() if c.name == "Ganger 2")
    assert SR3.own_roll("S", ganger, "physical", state) is None
    assert SR3.own_roll("3", ganger, "physical", state) is None
    assert _roll(state, "Ganger 2", "6M Stun").track == "stun"
    with pytest.raises(RulesError, match="not a damage level"):
        SR3.own_roll("6X", ganger, "physical", state)


def test_the_other_games_mark_a_shared_hit_as_read() -> None:
    for system_id in ("walka", "souboj", "institut", "clovek"):
        system = get_system(system_id)
        state = system.sample().state
        combatant = next(iter(state.combatants.values()))
        assert system.own_roll("3", combatant, system.tracks(combatant, state)[0].key, state) is None


def test_the_resisted_hit_spends_the_pool_marks_the_staged_level_and_says_so() -> None:
    history = _history()
    ganger = next(c for c in history.state.combatants.values() if c.name == "Ganger 2")
    pool_before = history.state.combatant(ganger.id).pools[COMBAT_POOL]
    roll = _roll(history.state, "Ganger 2", "10S")  # TN 10: a success needs a 6 and then a 4
    entry = history.do(roll.operation(((6, 4), (6, 5), (3,), (2,), (1,), (5,)), 2))  # 4 + 2 dice: 2 successes
    after = history.state.combatant(ganger.id)
    assert after.boxes("physical") == 3  # S staged to M
    assert after.pools[COMBAT_POOL] == Pool(pool_before.size, pool_before.spent + 2)
    assert [line.render() for line in entry.log] == [
        "Ganger 2 resists 10S.", "Ganger 2 uses 2 combat pool dice.", "Ganger 2 resists: 2 successes at TN 10.",
        "Ganger 2 takes Moderate Physical damage."]
    history.undo()
    assert history.state.combatant(ganger.id) == ganger


def test_the_resisted_hit_serialises_and_replays() -> None:
    operation = Sr3ResistHit("c6", 10, "S", 10, ((6, 4), (2,)), 0, "stun")
    assert operation_from_data(json.loads(json.dumps(to_data(operation)))) == operation


@pytest.mark.parametrize(("operation", "refusal"), [
    (Sr3ResistHit("c6", 10, "S", 10, ((6,), (2,))), "6"),  # a 6 at TN 10 is rolled again
    (Sr3ResistHit("c6", 10, "S", 10, ((2,),), 2), "More pool dice than dice rolled."),
    (Sr3ResistHit("c6", 10, "S", 1, ((2,),)), "A resistance target number is 2 to 100."),
    (Sr3ResistHit("c6", 10, "X", 10, ((2,),)), "Unknown damage level"),
    (Sr3ResistHit("c6", 10, "S", 10, ((7,),)), "A d6 shows 1 to 6."),
    (Sr3ResistHit("nobody", 10, "S", 10, ((2,),)), "nobody"),
])
def test_a_hostile_resisted_hit_is_refused_and_changes_nothing(operation: Sr3ResistHit, refusal: str) -> None:
    history = _history()
    before = history.state
    with pytest.raises(RulesError, match=refusal):
        history.do(operation)
    assert history.state is before


def test_more_pool_dice_than_left_are_refused() -> None:
    history = _history()
    ganger = history.state.combatant("c6")
    left = ganger.pools[COMBAT_POOL].remaining
    faces = tuple((2,) for _ in range(ganger.attribute("body") + left + 1))
    with pytest.raises(RulesError, match="combat pool dice left"):
        history.do(Sr3ResistHit("c6", 10, "S", 10, faces, left + 1))
