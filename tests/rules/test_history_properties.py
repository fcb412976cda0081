"""Property tests: undo restores the exact previous state, redo the exact next one, and
serialising states, operations and whole fights is the identity."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.combatants import (
    AddCombatant,
    ApplyHarm,
    EditCombatant,
    EditEncounter,
    RemoveCombatant,
    SetAttribute,
    SetDamage,
    SetOption,
    SetPool,
    SpendAction,
    SpendPool,
    next_combatant_id,
)
from rules.effects import AddEffect, RemoveEffect
from rules.encounter import Effect, Encounter, Side, Timing, frozen_map
from rules.errors import RulesError
from rules.history import Batch, History, Operation
from rules.serialize import (
    encounter_from_data,
    history_from_document,
    history_to_document,
    operation_from_data,
    to_data,
)
from rules.systems.base import Hook
from rules.turns import DelayAction, NextTurn, RollInitiative, SetInitiative, TakeDelayedAction, YieldTurn
from tests.rules.sr3_scenes import eight_characters

OpFactory = Callable[[st.DataObject, Encounter], Operation]


def _someone(data: st.DataObject, state: Encounter) -> str:
    ids = sorted(state.combatants) or ["nobody"]
    return data.draw(st.sampled_from(ids))


def _current_or_someone(data: st.DataObject, state: Encounter) -> str:
    slot = state.clock.current
    if slot is not None and slot.ids and data.draw(st.booleans()):
        return slot.ids[0]
    return _someone(data, state)


def _roll(data: st.DataObject, state: Encounter) -> Operation:
    rolls = {cid: tuple(data.draw(st.lists(st.integers(1, 6), min_size=1, max_size=2)))
             for cid in state.combatants if data.draw(st.booleans())}
    ties = {cid: tuple(data.draw(st.lists(st.integers(1, 6), max_size=2))) for cid in rolls}
    return RollInitiative(frozen_map(rolls), frozen_map(ties))


def _effect(data: st.DataObject, state: Encounter) -> Operation:
    hook = data.draw(st.sampled_from(list(Hook)))
    target = data.draw(st.one_of(st.none(), st.sampled_from(sorted(state.combatants) or ["nobody"])))
    due = data.draw(st.one_of(st.none(), st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(0, 30))))
    effect = Effect(f"e{state.serial}-{data.draw(st.integers(0, 9))}", data.draw(st.sampled_from(["Smoke", "Aim"])),
                    target=target, expires=Timing(hook, data.draw(st.one_of(st.none(), st.just(target)))),
                    remaining=data.draw(st.integers(0, 3)), reminds=Timing(hook) if due is None else None,
                    due=due)
    return AddEffect(effect)


FACTORIES: list[OpFactory] = [
    lambda d, s: NextTurn(),
    lambda d, s: NextTurn(),
    lambda d, s: NextTurn(),
    _roll,
    lambda d, s: ApplyHarm(_someone(d, s), d.draw(st.sampled_from(["physical", "stun", "mana"])),
                           d.draw(st.integers(-4, 12))),
    lambda d, s: SetDamage(_someone(d, s), d.draw(st.sampled_from(["physical", "stun"])), d.draw(st.integers(0, 16))),
    lambda d, s: SpendPool(_someone(d, s), "combat", d.draw(st.integers(-2, 6))),
    lambda d, s: SetPool(_someone(d, s), d.draw(st.sampled_from(["combat", "magic"])), d.draw(st.integers(0, 9))),
    lambda d, s: SpendAction(_current_or_someone(d, s), d.draw(st.sampled_from(["free", "simple", "complex", "x"]))),
    lambda d, s: DelayAction(_current_or_someone(d, s), d.draw(st.booleans())),
    lambda d, s: TakeDelayedAction(_someone(d, s)),
    lambda d, s: YieldTurn(_current_or_someone(d, s)),
    lambda d, s: SetInitiative(_someone(d, s), d.draw(st.one_of(st.none(), st.integers(-5, 40)))),
    lambda d, s: AddCombatant(next_combatant_id(s), d.draw(st.sampled_from(["Ganger", "Troll", ""])),
                              d.draw(st.sampled_from(list(Side))),
                              frozen_map({"reaction": d.draw(st.integers(1, 12))})),
    lambda d, s: RemoveCombatant(_someone(d, s)),
    lambda d, s: SetAttribute(_someone(d, s), d.draw(st.sampled_from(["quickness", "body", "reaction"])),
                              d.draw(st.integers(0, 12))),
    lambda d, s: EditCombatant(_someone(d, s), "notes", d.draw(st.text(max_size=8))),
    lambda d, s: EditEncounter(d.draw(st.sampled_from(["name", "notes"])), d.draw(st.text(max_size=8))),
    lambda d, s: SetOption(d.draw(st.sampled_from(["delaying", "melee_tie", "nope"])),
                           d.draw(st.sampled_from([True, "attacker", 3]))),
    _effect,
    lambda d, s: Batch((ApplyHarm(_someone(d, s), "stun", d.draw(st.integers(1, 4))), NextTurn()), "harm and next"),
    lambda d, s: RemoveEffect(d.draw(st.sampled_from(sorted(s.effects) or ["none"]))),
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
def test_every_operation_reverses_exactly_and_serialises(data: st.DataObject) -> None:
    history, _ids = eight_characters()
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
def test_pass_engine_never_lets_anyone_act_twice_in_a_pass(data: st.DataObject) -> None:
    """An action is complete when Next is pressed on a normal slot; no one completes two in one pass."""
    history, _ids = eight_characters()
    acted: set[tuple[int, int, str]] = set()
    for _index in range(80):
        factory = data.draw(st.sampled_from([FACTORIES[0], FACTORIES[4], FACTORIES[9], FACTORIES[10],
                                             FACTORIES[11], _roll]))
        operation = factory(data, history.state)
        slot, clock = history.state.clock.current, history.state.clock
        try:
            history.do(operation)
        except RulesError:
            continue
        if isinstance(operation, NextTurn) and slot is not None and slot.kind.value == "actors":
            for cid in slot.ids:
                assert (clock.round, clock.pass_no, cid) not in acted
                acted.add((clock.round, clock.pass_no, cid))
