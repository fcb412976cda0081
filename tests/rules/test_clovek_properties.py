"""Člověk property tests: random sequences of the game's operations (and the generic ones) undo to the exact
previous state, redo to the exact next one, and serialise (operations, states, whole fights) to themselves."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.combatants import (
    AddCombatant,
    ApplyHarm,
    RemoveCombatant,
    SetAttribute,
    SetDamage,
    SetOption,
    SpendAction,
    next_combatant_id,
)
from rules.encounter import Encounter, Side, frozen_map
from rules.errors import RulesError
from rules.history import Batch, History, Operation
from rules.serialize import (
    encounter_from_data,
    history_from_document,
    history_to_document,
    operation_from_data,
    to_data,
)
from rules.systems.clovek import (
    SYSTEM,
    ClovekBurn,
    ClovekCheck,
    ClovekSpend,
    EndLongAction,
    PauseLongAction,
    PowerRoll,
    RefillBanks,
    ResumeLongAction,
    SetCapacityName,
    SetInitiativeDice,
    SkillRoll,
    StartLongAction,
)
from rules.systems.clovek.banks import BANKS, DEXTERITY, burnt_this_round, extra_map
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.long_actions import LONG_ACTIONS, LongKind
from rules.systems.clovek.rolls import PowerSource
from rules.turns import NextTurn, RollInitiative, SetInitiative, YieldTurn
from tests.rules.test_clovek_scenes import seed_fight

OpFactory = Callable[[st.DataObject, Encounter], Operation]
Chains = tuple[tuple[int, ...], ...]

banks = st.sampled_from(BANKS)
chains = st.builds(lambda tens, last: (10,) * tens + (last,), st.integers(0, 2), st.integers(1, 9))


def _someone(data: st.DataObject, state: Encounter) -> str:
    return data.draw(st.sampled_from(sorted(state.combatants) or ["nobody"]))


def _current_or_someone(data: st.DataObject, state: Encounter) -> str:
    slot = state.clock.current
    if slot is not None and slot.ids and data.draw(st.booleans()):
        return slot.ids[0]
    return _someone(data, state)


def _faces(data: st.DataObject, most: int = 4) -> Chains:
    return tuple(data.draw(st.lists(chains, min_size=1, max_size=most)))


def _with_long_action(data: st.DataObject, state: Encounter) -> str:
    """Someone with the long action "la" if anyone has it (so pausing and resuming get tried), else anyone."""
    busy = sorted(c.id for c in state.combatants.values() if "la" in extra_map(c, LONG_ACTIONS))
    prefer_busy: bool = data.draw(st.booleans())
    if busy and prefer_busy:
        return data.draw(st.sampled_from(busy))
    return _someone(data, state)


def _initiative_faces(data: st.DataObject, state: Encounter, combatant_id: str) -> tuple[int, ...]:
    count = SYSTEM.initiative_dice(state.combatant(combatant_id), state).count
    size = count if data.draw(st.integers(0, 4)) else data.draw(st.integers(0, 3))
    return tuple(data.draw(st.lists(st.integers(1, 10), min_size=size, max_size=size)))


def _roll(data: st.DataObject, state: Encounter) -> Operation:
    rolls = {cid: _initiative_faces(data, state, cid) for cid in state.combatants if data.draw(st.integers(0, 5))}
    return RollInitiative(frozen_map(rolls), frozen_map({cid: (data.draw(st.integers(1, 6)),) for cid in rolls}))


def _check(data: st.DataObject, state: Encounter) -> Operation:
    roller = _current_or_someone(data, state)
    if roller not in state.combatants:
        return NextTurn()
    target = data.draw(st.one_of(st.none(), st.sampled_from(sorted(state.combatants) or ["nobody"])))
    test = SkillRoll(data.draw(banks), _faces(data), data.draw(st.integers(0, 6)),
                     data.draw(st.sampled_from(list(SkillKind))), data.draw(st.booleans()), "Skill",
                     data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2)))
    defence = SkillRoll(data.draw(banks), _faces(data, 2), data.draw(st.integers(0, 4))) if target and data.draw(
        st.booleans()) else None
    power = PowerRoll(data.draw(st.sampled_from(list(PowerSource))), data.draw(st.integers(0, 5)), _faces(data, 3),
                      data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))) if data.draw(st.booleans()) else None
    track = data.draw(st.sampled_from(["", "physical_wounds", "mental_stun"])) if target else ""
    long_action = "la" if "la" in extra_map(state.combatant(roller), LONG_ACTIONS) and data.draw(
        st.booleans()) else ""
    return ClovekCheck(roller, test, data.draw(st.sampled_from(["action", "reaction"])), power, target, defence,
                       track, long_action, data.draw(st.booleans()))


FACTORIES: list[OpFactory] = [
    lambda d, s: NextTurn(),
    lambda d, s: NextTurn(),
    _roll,
    _check,
    _check,
    lambda d, s: SetInitiativeDice(_someone(d, s), d.draw(st.integers(0, 9))),
    lambda d, s: ClovekSpend(_current_or_someone(d, s), d.draw(banks), d.draw(st.integers(0, 5)),
                             d.draw(st.sampled_from(["action", "reaction", "x"])), d.draw(st.booleans()), "why"),
    lambda d, s: ClovekBurn(_someone(d, s), d.draw(banks), d.draw(st.integers(0, 2))),
    lambda d, s: RefillBanks(d.draw(st.one_of(st.none(), st.sampled_from(sorted(s.combatants) or ["nobody"])))),
    lambda d, s: StartLongAction(_someone(d, s), "la", "Long", d.draw(banks), d.draw(st.sampled_from(list(LongKind))),
                                 d.draw(st.integers(0, 12))),
    lambda d, s: PauseLongAction(_with_long_action(d, s), "la"),
    lambda d, s: ResumeLongAction(_with_long_action(d, s), "la"),
    lambda d, s: EndLongAction(_with_long_action(d, s), "la"),
    lambda d, s: SetCapacityName(_someone(d, s), d.draw(banks), d.draw(st.sampled_from(["Will", "", "Memory"]))),
    lambda d, s: ApplyHarm(_someone(d, s), d.draw(st.sampled_from(["physical_stun", "mental_wounds", "stun"])),
                           d.draw(st.integers(-4, 12))),
    lambda d, s: SetDamage(_someone(d, s), d.draw(st.sampled_from(["social_stun", "physical_wounds"])),
                           d.draw(st.integers(0, 12))),
    lambda d, s: SetAttribute(_someone(d, s), d.draw(st.sampled_from(["agility", "intelligence", "composure"])),
                              d.draw(st.integers(0, 6))),
    lambda d, s: SpendAction(_current_or_someone(d, s), d.draw(st.sampled_from([*BANKS, "free"]))),
    lambda d, s: SetInitiative(_someone(d, s), d.draw(st.one_of(st.none(), st.integers(0, 20)))),
    lambda d, s: YieldTurn(_current_or_someone(d, s)),
    lambda d, s: SetOption(d.draw(st.sampled_from(["track_sizes", "power_critical_range", "full_physical_wounds"])),
                           d.draw(st.sampled_from([1, 3, "unconscious", "note", frozen_map({"physical": frozen_map(
                               {"wounds": 4})})]))),
    lambda d, s: AddCombatant(next_combatant_id(s), d.draw(st.sampled_from(["Guard", "Dante", ""])),
                              d.draw(st.sampled_from(list(Side))),
                              frozen_map({"agility": d.draw(st.integers(0, 4)), "intelligence": 3})),
    lambda d, s: RemoveCombatant(_someone(d, s)) if d.draw(st.integers(0, 3)) == 0 else NextTurn(),
    lambda d, s: Batch((ClovekSpend(_someone(d, s), "social", 1), NextTurn()), "spend and next"),
]


def _step(history: History, operation: Operation) -> None:
    before_state, before_data = history.state, to_data(history.state)
    try:
        history.do(operation)
    except RulesError:
        assert history.state is before_state  # a refused operation changes nothing
        return
    after_state, after_data = history.state, to_data(history.state)
    history.undo()
    assert history.state == before_state
    assert to_data(history.state) == before_data  # exact, including the order of every mapping
    history.redo()
    assert history.state == after_state and to_data(history.state) == after_data
    assert operation_from_data(json.loads(json.dumps(to_data(operation)))) == operation


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_clovek_operation_reverses_exactly_and_serialises(data: st.DataObject) -> None:
    history = seed_fight()
    for _index in range(data.draw(st.integers(5, 45))):
        factory = data.draw(st.sampled_from(FACTORIES))
        _step(history, factory(data, history.state))
    state_data = json.loads(json.dumps(to_data(history.state)))
    assert encounter_from_data(state_data) == history.state
    document = json.loads(json.dumps(history_to_document(history)))
    assert to_data(history_from_document(document).state) == to_data(history.state)
    while history.undo():
        pass
    assert to_data(history.state) == to_data(history.initial)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_banks_stay_within_their_sizes_and_burns_within_the_round_limit(data: st.DataObject) -> None:
    """Whatever happens, no bank holds more dice than its size or fewer than none, and no one burns more than
    their dexterity attribute of one type in a round."""
    history = seed_fight()
    for _index in range(60):
        factory = data.draw(st.sampled_from(FACTORIES[:12]))
        try:
            history.do(factory(data, history.state))
        except RulesError:
            continue
        for combatant in history.state.combatants.values():
            for name in BANKS:
                pool = combatant.pools[name]
                assert 0 <= pool.spent <= pool.size
                assert burnt_this_round(combatant, name) <= max(0, combatant.attribute(DEXTERITY[name]))
