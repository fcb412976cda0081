"""Fuzz every game's operations with hypothesis state machines, starting from each game's sample fight.

Operations are generated from their own type hints (every operation in the registry that belongs to the game
or to every game), with strings drawn from the words the fight itself uses (ids, tracks, banks, seats,
options…), so many are accepted and the rest exercise the refusals. After every step:

- an operation either applies or raises a RulesError (the documented error) and changes nothing;
- undo gives back exactly the state before (including the order of every mapping), redo the state after;
- the operation survives a JSON round trip.

Other steps press Next, roll initiative, undo, redo, and save and reopen the fight (sealed: it opens from
its last state and replays lazily; or edited: replayed in full) and go on with the reopened fight, so
undo reaches back through a loaded history too. ``make test`` runs a short machine per game; ``make soak``
runs 10,000 steps per game.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from app.samples import samples
from rules.combatants import AddCombatant, next_combatant_id
from rules.dice import Roller
from rules.documents import fight_data
from rules.encounter import Encounter, frozen_map
from rules.errors import RulesError
from rules.history import Batch, History, Operation
from rules.serialize import _JsonMarker, history_from_document, history_to_document, operation_from_data, to_data
from rules.systems import all_systems, get_system
from rules.turns import NextTurn, roll_initiative

GAMES = tuple(all_systems())  # imports every game: their operations register themselves
SHORT = settings(max_examples=12, stateful_step_count=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
#: 100 machines of 100 steps: 10,000 steps per game.
SOAK = settings(max_examples=100, stateful_step_count=100, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# --- operations from their type hints -----------------------------------------------------------


def _words(data: Any, found: set[str]) -> None:
    """Every string key and value of a state's data: ids, names, tracks, banks, seats, options."""
    if isinstance(data, dict):
        for key, value in data.items():
            found.add(key)
            _words(value, found)
    elif isinstance(data, list):
        for item in data:
            _words(item, found)
    elif isinstance(data, str) and len(data) <= 40:
        found.add(data)


def vocabulary(state: Encounter) -> list[str]:
    """Words worth trying as strings, most useful first (ids, then the rest)."""
    found: set[str] = set()
    _words(to_data(state), found)
    return sorted(state.combatants) + sorted(found - set(state.combatants))


def operations_of(system_id: str) -> list[type[Operation]]:
    """The operations a fight of this game may hold: the game's own and the generic ones."""
    own = f"rules.systems.{system_id}"
    return sorted((cls for cls in Operation.registry.values()
                   if cls.__module__.startswith(own) or not cls.__module__.startswith("rules.systems.")),
                  key=lambda cls: cls.kind)


def json_values(depth: int = 0) -> st.SearchStrategy[Any]:
    """Free-form data, as options and extras hold."""
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.text(max_size=6))
    if depth >= 2:
        return leaves
    return st.one_of(leaves, st.lists(json_values(depth + 1), max_size=3).map(tuple),
                     st.dictionaries(st.text(max_size=4), json_values(depth + 1), max_size=3).map(frozen_map))


def strategy_for(kind: Any, words: list[str], depth: int = 0) -> st.SearchStrategy[Any]:
    """A value of type ``kind``: words for strings, small numbers, recursion into dataclasses."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is _JsonMarker or kind is Any:
        return json_values()
    if kind is Operation:
        return st.just(NextTurn())
    if origin in (typing.Union, types.UnionType):
        return st.one_of([strategy_for(arg, words, depth) for arg in args])
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin is not None:
        return _container(origin, args, words, depth)
    return _scalar(kind, words, depth)


def _container(origin: Any, args: tuple[Any, ...], words: list[str], depth: int) -> st.SearchStrategy[Any]:
    if origin in (Mapping, dict, typing.Mapping) or str(origin).endswith("Mapping'>"):
        return st.dictionaries(strategy_for(args[0], words, depth + 1), strategy_for(args[1], words, depth + 1),
                               max_size=4).map(frozen_map)
    if origin is frozenset:
        return st.frozensets(strategy_for(args[0], words, depth + 1), max_size=4)
    if len(args) == 2 and args[1] is Ellipsis:
        return st.lists(strategy_for(args[0], words, depth + 1), max_size=6 if depth else 4).map(tuple)
    return st.tuples(*(strategy_for(arg, words, depth + 1) for arg in args))


def _scalar(kind: Any, words: list[str], depth: int) -> st.SearchStrategy[Any]:
    if kind is type(None):
        return st.none()
    if kind is bool:
        return st.booleans()
    if kind is int:
        # Faces and small numbers mostly (faces of dice sit at depth ≥ 1), sometimes an absurd one.
        return st.one_of(st.integers(1, 6) if depth else st.integers(-2, 12), st.integers(-(10**9), 10**9))
    if kind is float:
        return st.floats(-5, 30, allow_nan=False)
    if kind is str:
        return st.one_of(st.sampled_from(words), st.text(max_size=5)) if words else st.text(max_size=5)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return st.sampled_from(list(kind))
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        from rules.serialize import type_hints

        hints = type_hints(kind)
        return st.builds(kind, **{spec.name: strategy_for(hints[spec.name], words, depth + 1)
                                  for spec in dataclasses.fields(kind)})
    raise AssertionError(f"no strategy for {kind!r}")


#: String fields that name a combatant, and fields that name a key of one of a combatant's mappings.
WHO = frozenset({"combatant_id", "attacker", "target", "thrower", "shooter", "leader", "against", "who"})
KEYS = {"track": "damage", "pool": "pools", "bank": "pools", "key": "attributes", "action": "actions_used"}


def _keys(state: Encounter, field: str) -> list[str]:
    return sorted({key for combatant in state.combatants.values() for key in getattr(combatant, field)})


DICE_LINES = ("3d6+2", "12d6 tn 5", "8d10 skill 3", "d20 under 12", "4d6 >= 4", "2d6")


def _mostly(likely: list[str], plain: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Three draws in four from ``likely``, the fourth from ``plain`` (anything of the type)."""
    if not likely:
        return plain
    choice = st.sampled_from(likely)
    return st.integers(0, 3).flatmap(lambda pick: plain if pick == 0 else choice)


@dataclasses.dataclass(frozen=True)
class Plausible:
    """What of a fight makes a field's value plausible: its words, combatants, effects, the keys of their maps.

    Most steps leave all of it as it was (damage changes numbers, not names), so the strategies built from it
    are kept and reused: building them again at every step was most of the fuzz test's time.
    """

    system_id: str
    words: tuple[str, ...]
    combatants: tuple[str, ...]
    effects: tuple[str, ...]
    keys: tuple[tuple[str, tuple[str, ...]], ...]
    next_id: str

    @classmethod
    def of(cls, state: Encounter) -> Plausible:
        keys = tuple((name, tuple(_keys(state, field))) for name, field in sorted(KEYS.items()))
        return cls(state.system_id, tuple(vocabulary(state)), tuple(sorted(state.combatants)),
                   tuple(sorted(state.effects)), keys, next_combatant_id(state))

    def keys_for(self, name: str) -> list[str]:
        return list(dict(self.keys).get(name, ()))


def field_strategy(name: str, hint: Any, plausible: Plausible) -> st.SearchStrategy[Any]:
    """Mostly plausible values for a field named ``name``: a combatant for ``target``, a track for ``track``…"""
    plain = strategy_for(hint, list(plausible.words))
    if hint not in (str, str | None):
        return plain
    if name in WHO:
        return _mostly(list(plausible.combatants), plain)
    if name == "effect_id":
        return _mostly(list(plausible.effects), plain)
    if name == "expression":
        return _mostly(list(DICE_LINES), plain)
    keys = plausible.keys_for(name)
    if name == "key":
        keys += sorted(get_system(plausible.system_id).default_options())
    return _mostly(keys, plain)


def operation_strategies(system_id: str, state: Encounter) -> dict[str, st.SearchStrategy[Operation]]:
    """Each operation of the game (by kind), with fields a fight like ``state`` makes plausible."""
    return _strategies(system_id, Plausible.of(state))


@lru_cache(maxsize=256)  # a fight's few hundred distinct contexts in a run
def _strategies(system_id: str, plausible: Plausible) -> dict[str, st.SearchStrategy[Operation]]:
    from rules.serialize import type_hints

    strategies = {}
    for cls in operations_of(system_id):
        hints = type_hints(cls)
        fields = {spec.name: field_strategy(spec.name, hints[spec.name], plausible)
                  for spec in dataclasses.fields(cls)}  # type: ignore[arg-type]
        if cls is AddCombatant:  # a new combatant needs a new id
            fields["combatant_id"] = _mostly([plausible.next_id], fields["combatant_id"])
        strategies[cls.kind] = st.builds(cls, **fields)
    return strategies


def operation(system_id: str, state: Encounter) -> st.SearchStrategy[Operation]:
    """Any operation of the game."""
    return st.one_of(list(operation_strategies(system_id, state).values()))


@cache
def known_operations(system_id: str) -> tuple[Operation, ...]:
    """Every operation the game's sample fight applied (a batch's parts too): each was valid somewhere."""
    found: list[Operation] = []
    pending = [entry.operation for entry in samples()[system_id]().entries]
    while pending:
        operation = pending.pop(0)
        found.append(operation)
        if isinstance(operation, Batch):
            pending.extend(operation.operations)
    return tuple(found)


def near_known(system_id: str, state: Encounter, data: st.DataObject) -> Operation:
    """A known-good operation of the game, as it was or with one field changed (attacks, checks, seating…)."""
    from rules.serialize import type_hints

    known = data.draw(st.sampled_from(known_operations(system_id)))
    specs = dataclasses.fields(known)  # type: ignore[arg-type]
    if not specs or data.draw(st.booleans()):
        return known
    spec = data.draw(st.sampled_from(specs))
    value = data.draw(field_strategy(spec.name, type_hints(type(known))[spec.name], Plausible.of(state)))
    changed: Operation = dataclasses.replace(known, **{spec.name: value})  # type: ignore[type-var]
    return changed


# --- the machine --------------------------------------------------------------------------------


@cache
def sample_states(system_id: str) -> tuple[Any, ...]:
    """to_data of the sample fight's state after each of its entries (the undo oracle for the sample's part)."""
    sample = samples()[system_id]()
    replayed = History(sample.initial)
    states = [to_data(replayed.state)]
    for entry in sample.entries:
        replayed.do(entry.operation)
        states.append(to_data(replayed.state))
    return tuple(states)


class GameMachine(RuleBasedStateMachine):
    """One game's fight, driven at random; ``states`` is what undo must give back at each position."""

    system_id = ""

    @initialize()
    def start(self) -> None:
        self.history = samples()[self.system_id]()
        self.states = list(sample_states(self.system_id))
        self.undone: list[Any] = []

    def _do(self, operation: Operation) -> None:
        before, before_data = self.history.state, self.states[-1]
        try:
            self.history.do(operation)
        except RulesError:
            assert self.history.state is before  # refused: nothing changed
            return
        after_data = to_data(self.history.state)
        self.history.undo()
        assert to_data(self.history.state) == before_data
        self.history.redo()
        assert to_data(self.history.state) == after_data
        assert operation_from_data(json.loads(json.dumps(to_data(operation)))) == operation
        self.states.append(after_data)
        self.undone.clear()

    @rule(data=st.data())
    def operate(self, data: st.DataObject) -> None:
        self._do(data.draw(operation(self.system_id, self.history.state)))

    @rule(data=st.data())
    def operate_near_known(self, data: st.DataObject) -> None:
        self._do(near_known(self.system_id, self.history.state, data))

    @rule(data=st.data())
    def batch(self, data: st.DataObject) -> None:
        parts = data.draw(st.lists(operation(self.system_id, self.history.state), min_size=1, max_size=3))
        self._do(Batch(tuple(parts), "fuzz"))

    @rule()
    def next_turn(self) -> None:
        self._do(NextTurn())

    @rule(seed=st.integers(0, 2**32 - 1))
    def roll(self, seed: int) -> None:
        try:
            operation = roll_initiative(self.history.state, get_system(self.system_id), Roller.seeded(seed))
        except RulesError:
            return
        self._do(operation)

    @precondition(lambda self: self.history.can_undo)
    @rule()
    def undo(self) -> None:
        self.history.undo()  # never refused: nothing here was damaged
        self.undone.append(self.states.pop())

    @precondition(lambda self: self.history.can_redo)
    @rule()
    def redo(self) -> None:
        self.history.redo()
        self.states.append(self.undone.pop())

    @rule(trusted=st.booleans())
    def save_and_reopen(self, trusted: bool) -> None:
        document = json.loads(json.dumps(history_to_document(self.history)))
        reopened = history_from_document(document, trusted=trusted)
        assert fight_data(reopened) == fight_data(self.history)
        self.history = reopened
        self.undone.clear()  # a saved file keeps no redo

    @invariant()
    def state_is_the_one_expected(self) -> None:
        if hasattr(self, "history"):
            assert len(self.history.entries) + 1 == len(self.states)
            assert to_data(self.history.state) == self.states[-1]


def machine_for(system_id: str, budget: settings) -> Any:
    """A machine class for one game with its hypothesis settings."""
    machine: Any = type(f"{system_id.title()}Machine", (GameMachine,), {"system_id": system_id})
    machine.TestCase.settings = budget
    return machine


@pytest.mark.parametrize("system_id", GAMES)
def test_every_game_survives_random_operations(system_id: str) -> None:
    machine_for(system_id, SHORT).TestCase().runTest()


@pytest.mark.soak
@pytest.mark.parametrize("system_id", GAMES)
def test_every_game_survives_10000_random_steps(system_id: str) -> None:
    machine_for(system_id, SOAK).TestCase().runTest()


@cache
def sample_state(system_id: str) -> Encounter:
    """The state at the end of the game's sample fight."""
    return samples()[system_id]().state


KINDS = [(system_id, cls.kind) for system_id in GAMES for cls in operations_of(system_id)]


@pytest.mark.parametrize(("system_id", "kind"), KINDS)
@settings(max_examples=3, deadline=None, database=None)
@given(data=st.data())
def test_every_operation_of_every_game_is_generated_and_serialises(system_id: str, kind: str,
                                                                   data: st.DataObject) -> None:
    """The strategies know every field type in the registry (a new operation needs no change here)."""
    operation = data.draw(operation_strategies(system_id, sample_state(system_id))[kind])
    assert operation.kind == kind
    assert operation_from_data(json.loads(json.dumps(to_data(operation)))) == operation


def test_each_game_fuzzes_its_own_operations_and_the_shared_ones() -> None:
    for system_id in GAMES:
        kinds = {cls.kind for cls in operations_of(system_id)}
        assert {"next_turn", "apply_harm", "batch", "roll_initiative"} <= kinds
        assert not any(kind.split("_")[0] in GAMES and not kind.startswith(system_id) for kind in kinds)
