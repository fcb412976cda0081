"""Property tests for Souboj's operations: undo restores the exact previous state, redo the exact next one,
serialising operations, states and whole fights is the identity, and the order never lists anyone twice."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.combatants import AddCombatant, ApplyHarm, RemoveCombatant, SetDamage, SetOption, next_combatant_id
from rules.effects import RemoveEffect
from rules.encounter import Effect, Encounter, Side, SlotKind, Timing, frozen_map
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
from rules.systems.souboj import (
    ActAfter,
    AddInitiativeEffect,
    Declare,
    DropReaction,
    FinishOff,
    HoldReaction,
    MarkDead,
    SetDyingCountdown,
    SoubojAttack,
    TimePasses,
    UseReaction,
)
from rules.systems.souboj.model import Action, Cause, Kind, Placement, gave_up_now
from rules.turns import NextTurn, RollInitiative, SetInitiative, YieldTurn
from tests.rules.test_souboj_scene import SOUBOJ, fight

OpFactory = Callable[[st.DataObject, Encounter], Operation]


def _someone(data: st.DataObject, state: Encounter) -> str:
    return data.draw(st.sampled_from(sorted(state.combatants) or ["nobody"]))


def _acting_or_someone(data: st.DataObject, state: Encounter) -> str:
    slot = state.clock.current
    if slot is not None and slot.ids and data.draw(st.booleans()):
        return data.draw(st.sampled_from(slot.ids))
    return _someone(data, state)


def _roll(data: st.DataObject, state: Encounter) -> Operation:
    rolls = {cid: (data.draw(st.integers(1, 6)),) for cid in state.combatants if data.draw(st.booleans())}
    return RollInitiative(frozen_map(rolls), frozen_map())


def _attack(data: st.DataObject, state: Encounter) -> Operation:
    kind = data.draw(st.sampled_from(list(Kind)))
    magic = kind is Kind.MAGIC
    dice = st.none() if magic else st.integers(1, 6)
    return SoubojAttack(
        _acting_or_someone(data, state), _someone(data, state), kind, data.draw(st.sampled_from(["", "axe"])),
        data.draw(st.integers(-3, 20)), data.draw(st.integers(-3, 20)), data.draw(dice), data.draw(dice),
        data.draw(st.integers(0, 8)), data.draw(st.integers(0, 4)), data.draw(st.integers(1, 12)),
        tuple(data.draw(st.sets(st.sampled_from(list(Cause)), max_size=2))),
        data.draw(st.booleans()) and kind in (Kind.MELEE, Kind.UNARMED),
        data.draw(st.integers(0, 30)) if magic else 0)


def _initiative_effect(data: st.DataObject, state: Encounter) -> Operation:
    effect = Effect(f"e{data.draw(st.integers(0, 5))}", "Haste", target=_someone(data, state),
                    expires=Timing(Hook.ROUND_END.value), remaining=data.draw(st.integers(1, 3)))
    return AddInitiativeEffect(effect, data.draw(st.sampled_from([-3, -1, 2, 0])))


FACTORIES: list[OpFactory] = [
    lambda d, s: NextTurn(),
    lambda d, s: NextTurn(),
    lambda d, s: NextTurn(),
    _roll,
    _roll,
    lambda d, s: ApplyHarm(_someone(d, s), d.draw(st.sampled_from(["wounds", "shadow", "stun"])),
                           d.draw(st.integers(-6, 30))),
    lambda d, s: SetDamage(_someone(d, s), d.draw(st.sampled_from(["wounds", "shadow"])), d.draw(st.integers(0, 40))),
    lambda d, s: Declare(_acting_or_someone(d, s), d.draw(st.one_of(st.none(), st.sampled_from(list(Action)))),
                         d.draw(st.sampled_from(list(Placement)))),
    lambda d, s: ActAfter(_acting_or_someone(d, s), d.draw(st.one_of(st.none(), st.sampled_from(sorted(
        s.combatants) or ["nobody"])))),
    lambda d, s: HoldReaction(_acting_or_someone(d, s), d.draw(st.booleans()), d.draw(st.sampled_from(["", "parry"]))),
    lambda d, s: UseReaction(_someone(d, s), _acting_or_someone(d, s)),
    lambda d, s: DropReaction(_someone(d, s)),
    lambda d, s: SetDyingCountdown(_someone(d, s), d.draw(st.one_of(st.none(), st.integers(0, 4)))),
    lambda d, s: MarkDead(_someone(d, s), d.draw(st.booleans())),
    lambda d, s: TimePasses(d.draw(st.sampled_from([10, 15, 60, 600]))),
    _initiative_effect,
    _attack,
    _attack,
    lambda d, s: FinishOff(_acting_or_someone(d, s), _someone(d, s)),
    lambda d, s: YieldTurn(_acting_or_someone(d, s)),
    lambda d, s: SetInitiative(_someone(d, s), d.draw(st.one_of(st.none(), st.integers(-2, 7)))),
    lambda d, s: SetOption(d.draw(st.sampled_from(["surprise", "surprise_attackers", "shadow_rounding"])),
                           d.draw(st.sampled_from(["none", "attackers_only", "reactions_only", "party", "up"]))),
    lambda d, s: RemoveEffect(d.draw(st.sampled_from(sorted(s.effects) or ["none"]))),
    lambda d, s: AddCombatant(next_combatant_id(s), "Wolf", d.draw(st.sampled_from(list(Side))),
                              frozen_map({"hit_points": d.draw(st.integers(1, 12))})),
    lambda d, s: RemoveCombatant(_someone(d, s)),
    lambda d, s: Batch((ApplyHarm(_someone(d, s), "shadow", d.draw(st.integers(1, 9))), NextTurn()), "hit and next"),
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
    _check_order(history.state)


def _check_order(state: Encounter) -> None:
    """Nobody is listed twice in the order, and the group acting now is a group of distinct combatants."""
    listed = [cid for slot in SOUBOJ.remaining_slots(state) if slot.kind is SlotKind.ACTORS for cid in slot.ids]
    assert len(listed) == len(set(listed))
    current = state.clock.current
    if current is not None:
        assert len(current.ids) == len(set(current.ids))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_souboj_operation_reverses_exactly_and_serialises(data: st.DataObject) -> None:
    history, _ids = fight()
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
def test_nobody_acts_twice_in_a_round(data: st.DataObject) -> None:
    """A group is complete when Next is pressed on it; nobody completes two in one round, except one who gave up its
    initiative for reactions: it joins each action it answers (souboj.md: as many reactions as it wants)."""
    history, _ids = fight()
    acted: set[tuple[int, str]] = set()
    chosen = [FACTORIES[0], FACTORIES[3], FACTORIES[7], FACTORIES[8], FACTORIES[9], FACTORIES[10], FACTORIES[19]]
    for _index in range(80):
        operation = data.draw(st.sampled_from(chosen))(data, history.state)
        slot, round_no = history.state.clock.current, history.state.clock.round
        try:
            history.do(operation)
        except RulesError:
            continue
        if isinstance(operation, NextTurn) and slot is not None and slot.kind is SlotKind.ACTORS:
            for cid in slot.ids:
                if cid in history.state.combatants and gave_up_now(history.state.combatant(cid), history.state):
                    continue  # a reaction answering another action, not a turn of its own
                if cid in history.state.combatants and (round_no, cid) in acted:
                    raise AssertionError(f"{cid} acted twice in round {round_no}")
                acted.add((round_no, cid))
