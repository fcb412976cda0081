"""Property tests for Walka's operations: undo restores the exact previous state, redo the exact next one,
and serialising states, operations and whole fights is the identity (the pattern of test_history_properties)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.combatants import (
    AddCombatant,
    ApplyHarm,
    EditCombatant,
    RemoveCombatant,
    SetDamage,
    SetOption,
    SpendAction,
    next_combatant_id,
)
from rules.dice import Roller
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
from rules.systems.walka import (
    GM_SEAT,
    SYSTEM,
    DecideGmTie,
    SetKnockedDown,
    SetSeating,
    SpendChance,
    WalkaAction,
    WalkaAttack,
)
from rules.systems.walka.contest import Outcome
from rules.turns import DelayAction, NextTurn, RollInitiative, SetInitiative, YieldTurn, roll_initiative
from tests.rules.test_walka_scenes import table

OpFactory = Callable[[st.DataObject, Encounter], Operation]
KINDS = ["attack", "change_weapon", "non-combat", "move", "run", "stand_up", "prepare", "aim", "combat", "dance"]


def _someone(data: st.DataObject, state: Encounter) -> str:
    return data.draw(st.sampled_from(sorted(state.combatants) or ["nobody"]))


def _actor(data: st.DataObject, state: Encounter) -> str:
    slot = state.clock.current
    if slot is not None and slot.ids and data.draw(st.booleans()):
        return data.draw(st.sampled_from(slot.ids))
    return _someone(data, state)


def _roll(data: st.DataObject, state: Encounter) -> Operation:
    return roll_initiative(state, SYSTEM, Roller.seeded(data.draw(st.integers(0, 10_000))))


def _tied_roll(data: st.DataObject, state: Encounter) -> Operation:
    """Every seat rolls the same: the GM ties with the players, so DecideGmTie has something to decide."""
    value = data.draw(st.integers(1, 12))
    return RollInitiative(frozen_map({c.id: (value,) for c in state.combatants.values() if SYSTEM.can_act(c, state)}),
                          frozen_map({}))


def _faces(data: st.DataObject, bonus: int, penalty: int, die: int) -> tuple[int, ...]:
    return tuple(data.draw(st.lists(st.integers(1, die), min_size=1 + abs(bonus - penalty),
                                    max_size=1 + abs(bonus - penalty))))


def _attack(data: st.DataObject, state: Encounter) -> Operation:
    ab, ap, db, dp = (data.draw(st.integers(0, 2)) for _index in range(4))
    defence = data.draw(st.sampled_from(["dodge", "dodge", "", "parry"]))
    attack = WalkaAttack(_actor(data, state), _someone(data, state), data.draw(st.sampled_from(["firearms", "melee"])),
                         data.draw(st.integers(0, 20)), defence, data.draw(st.integers(0, 20)),
                         _faces(data, ab, ap, 20), _faces(data, db, dp, 20) if defence else (), 20, ab, ap, db, dp,
                         "Pistol", data.draw(st.integers(0, 4)), data.draw(st.integers(-1, 2)),
                         data.draw(st.integers(0, 2)), data.draw(st.booleans()), data.draw(st.booleans()),
                         counts_as_action=data.draw(st.booleans()))
    if attack.outcome() is not Outcome.HIT:
        return attack
    pool = attack.pool()
    return replace(attack, damage_faces=tuple(data.draw(st.lists(st.integers(1, 6), min_size=pool,
                                                                 max_size=pool))))


def _seating(data: st.DataObject, state: Encounter) -> Operation:
    seats = data.draw(st.lists(st.sampled_from(["Ania", "Bartek", "Celina", "Dana", "GM", ""]), max_size=4,
                               unique=True))
    assigned = data.draw(st.lists(st.sampled_from(sorted(state.combatants) or ["nobody"]), max_size=3, unique=True))
    places = [*seats, GM_SEAT, None]
    return SetSeating(tuple(seats), frozen_map({cid: data.draw(st.sampled_from(places)) for cid in assigned}))


FACTORIES: list[OpFactory] = [
    lambda d, s: NextTurn(),
    lambda d, s: NextTurn(),
    lambda d, s: NextTurn(),
    _roll,
    _attack,
    _attack,
    lambda d, s: WalkaAction(_actor(d, s), d.draw(st.sampled_from(KINDS))),
    lambda d, s: WalkaAction(_actor(d, s), d.draw(st.sampled_from(KINDS))),
    lambda d, s: SpendAction(_actor(d, s), d.draw(st.sampled_from(["non-combat", "combat", "free"]))),
    lambda d, s: SpendChance(_someone(d, s)),
    lambda d, s: SetKnockedDown(_someone(d, s), d.draw(st.booleans())),
    lambda d, s: DecideGmTie(d.draw(st.booleans())),
    _seating,
    _tied_roll,
    lambda d, s: DecideGmTie(d.draw(st.booleans())),
    lambda d, s: ApplyHarm(_someone(d, s), d.draw(st.sampled_from(["hp", "stun"])), d.draw(st.integers(-3, 8))),
    lambda d, s: SetDamage(_someone(d, s), "hp", d.draw(st.integers(0, 8))),
    lambda d, s: SetOption(d.draw(st.sampled_from(["reroll_each_round", "test_die", "gm_tie_default", "aim_lasts"])),
                           d.draw(st.sampled_from([True, False, "100", "gm", "same_round", 3]))),
    lambda d, s: AddCombatant(next_combatant_id(s), d.draw(st.sampled_from(["Ganger", "Rook", ""])),
                              d.draw(st.sampled_from(list(Side))),
                              frozen_map({"hit_points": d.draw(st.integers(1, 8))}),
                              seat=d.draw(st.sampled_from([None, "Ania", "Dana", GM_SEAT]))),
    lambda d, s: RemoveCombatant(_someone(d, s)),
    lambda d, s: EditCombatant(_someone(d, s), "seat", d.draw(st.sampled_from([None, "Ania", "Bartek", GM_SEAT]))),
    lambda d, s: YieldTurn(_actor(d, s)),
    lambda d, s: DelayAction(_actor(d, s)),
    lambda d, s: SetInitiative(_someone(d, s), d.draw(st.one_of(st.none(), st.integers(1, 12)))),
    lambda d, s: Batch((WalkaAction(_actor(d, s), "move"), NextTurn()), "move and next"),
]


def _decide(data: st.DataObject, state: Encounter) -> Operation:
    return DecideGmTie(data.draw(st.booleans()))


def _harm(data: st.DataObject, state: Encounter) -> Operation:
    return ApplyHarm(_someone(data, state), "hp", data.draw(st.integers(-3, 8)))


def _yield(data: st.DataObject, state: Encounter) -> Operation:
    return YieldTurn(_actor(data, state))


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
def test_every_walka_operation_reverses_exactly_and_serialises(data: st.DataObject) -> None:
    history, _ids = table()
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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_seat_acts_twice_in_a_round(data: st.DataObject) -> None:
    """Each combatant completes at most one turn per round, whatever happens in between."""
    history, _ids = table()
    acted: set[tuple[int, str]] = set()
    for _index in range(80):
        factory = data.draw(st.sampled_from([FACTORIES[0], FACTORIES[0], _roll, _tied_roll, _seating, _decide,
                                             _harm, _yield]))
        operation = factory(data, history.state)
        slot, clock = history.state.clock.current, history.state.clock
        try:
            history.do(operation)
        except RulesError:
            continue
        if isinstance(operation, NextTurn) and slot is not None:
            for cid in slot.ids:
                assert (clock.round, cid) not in acted
                acted.add((clock.round, cid))
