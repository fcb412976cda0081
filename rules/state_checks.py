"""Checks a state read from a file must pass before anything shows it: every number within the window's limits
(:mod:`rules.limits`), and every reference between its parts pointing where the rest of the app expects.

The codec (:mod:`rules.serialize`) checks each value against its type; these checks are about what the values
mean together. A file that fails one is refused with a message naming the place and the problem, never shown:
a round number of 10⁹ made the initiative chart allocate gigabytes, a combatant filed under another id than its
own broke every view that looked it up.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Any, Final

from rules import limits
from rules.encounter import Encounter, Slot, SlotKind
from rules.errors import RulesError, clipped
from rules.limits import Limit
from rules.serialize import SchemaError, type_hints
from rules.systems.base import RuleSystem
from rules.text import _

#: The limit of every whole number an encounter holds, by where it is: ``*`` stands for any key of a mapping or
#: any item of a list, a digit for a place in a fixed tuple. Every whole number of the state must be listed (the
#: check is built from the types, and building it fails on a number without a limit).
FIELD_LIMITS: Final[Mapping[str, Limit]] = {
    "serial": limits.SERIAL,
    "clock.round": limits.ROUND,
    "clock.pass_no": limits.PASS,
    "clock.current.phase": limits.SCORE,
    "combatants.*.attributes.*": limits.ATTRIBUTE,
    "combatants.*.damage.*": limits.DAMAGE,
    "combatants.*.pools.*.size": limits.POOL_DICE,
    "combatants.*.pools.*.spent": limits.POOL_DICE,
    "combatants.*.initiative.base": limits.SCORE,
    "combatants.*.initiative.dice.*": limits.FACE,
    "combatants.*.initiative.tiebreak.*": limits.FACE,
    "combatants.*.initiative.override": limits.TYPED_SCORE,
    "combatants.*.actions_used.*": limits.ACTIONS,
    "delays.*.round": limits.ROUND,
    "delays.*.pass_no": limits.PASS,
    "effects.*.remaining": limits.EFFECT_COUNT,
    "effects.*.due.0": limits.ROUND,
    "effects.*.due.1": limits.PASS,
    "effects.*.due.2": limits.SCORE,
}

#: Lists whose length is limited, by where they are.
COUNT_LIMITS: Final[Mapping[str, Limit]] = {
    "combatants.*.initiative.dice": limits.INITIATIVE_DICE,
    "combatants.*.initiative.tiebreak": limits.TIEBREAK_DICE,
}

#: Free-form data a game owns (its options, its own state, extras and weapon values): the game checks it when it
#: reads it (and the codec bounds it), so no limit applies here.
GAME_DATA: Final[frozenset[str]] = frozenset({"options", "game", "combatants.*.extra", "combatants.*.weapons.*.values"})

Check = Callable[[Any, str], None]


def _fail(place: str, problem: str) -> SchemaError:
    return SchemaError(_("{place}: {problem}").format(place=place, problem=problem))


def check_state(state: Encounter, place: str) -> None:
    """Refuse (SchemaError naming the place) a state with a number past its limit or a broken reference."""
    _checker(Encounter, "")(state, place)
    _check_scores(state, place)
    check_references(state, place)


def check_options(state: Encounter, system: RuleSystem, place: str) -> None:
    """Every option the game knows holds a value its settings would accept (a weapons table with a burst of
    "c-gone" in a file raised, unhandled, when the window first read it). Options the game no longer knows are left
    alone: no rule reads them."""
    specs = {spec.key: spec for spec in system.option_specs()}
    for key, value in state.options.items():
        if key in specs:
            try:
                system.validate_option(specs[key], value)
            except RulesError as problem:
                raise _fail(f"{place}.options.{key}", clipped(str(problem))) from None


def _check_scores(state: Encounter, place: str) -> None:
    """Each rolled total within :data:`~rules.limits.SCORE` too (its parts are, but 999 faces of 1000 are not)."""
    for key, combatant in state.combatants.items():
        if combatant.initiative is not None and not limits.SCORE.allows(combatant.initiative.rolled):
            raise _fail(f"{place}.combatants.{key}.initiative", limits.SCORE.problem(combatant.initiative.rolled))


# --- numbers --------------------------------------------------------------------------------------------------


@cache
def _checker(kind: Any, pattern: str) -> Check:
    """The check of a value of type ``kind`` found at ``pattern`` (built once per type and place, from the types)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if pattern in GAME_DATA or kind in (str, bool, type(None)) or (isinstance(kind, type) and issubclass(kind, Enum)):
        return _nothing
    if kind is int:
        return _number_check(FIELD_LIMITS[pattern])
    if dataclasses.is_dataclass(kind):
        return _object_check(kind, pattern)
    if origin in (typing.Union, types.UnionType):
        return _optional_check(tuple(_checker(arg, pattern) for arg in args if arg is not type(None)))
    if origin is frozenset:
        return _nothing if args == (str,) else _unsupported(kind, pattern)
    if origin is not None and issubclass(origin, Mapping):
        return _mapping_check(_checker(args[1], f"{pattern}.*"))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _list_check(COUNT_LIMITS.get(pattern), _checker(args[0], f"{pattern}.*"))
    if origin is tuple:
        return _fixed_check(tuple(_checker(arg, f"{pattern}.{index}") for index, arg in enumerate(args)))
    return _unsupported(kind, pattern)


def _unsupported(kind: Any, pattern: str) -> Check:
    raise TypeError(f"{pattern}: no check for values of type {kind!r}")


def _nothing(value: Any, place: str) -> None:
    """Text, flags and choices were checked by the codec; nothing more to check."""


def _number_check(limit: Limit) -> Check:
    def number(value: Any, place: str) -> None:
        if not limit.low <= value <= limit.high:
            raise _fail(place, limit.problem(value))
    return number


def _object_check(cls: Any, pattern: str) -> Check:
    parts = tuple((name, _checker(kind, f"{pattern}.{name}".lstrip(".")))
                  for name, kind in type_hints(cls).items())
    parts = tuple((name, check) for name, check in parts if check is not _nothing)

    def whole(value: Any, place: str) -> None:
        for name, check in parts:
            check(getattr(value, name), f"{place}.{name}")
    return whole


def _optional_check(checks: tuple[Check, ...]) -> Check:
    real = tuple(check for check in checks if check is not _nothing)
    if not real:
        return _nothing
    if len(real) > 1:
        raise TypeError("a union of several checked types")

    def optional(value: Any, place: str) -> None:
        if value is not None:
            real[0](value, place)
    return optional


def _mapping_check(item: Check) -> Check:
    if item is _nothing:
        return _nothing

    def mapping(value: Any, place: str) -> None:
        for key, each in value.items():
            item(each, f"{place}.{key}")
    return mapping


def _list_check(count: Limit | None, item: Check) -> Check:
    if count is None and item is _nothing:
        return _nothing

    def listed(value: Any, place: str) -> None:
        if count is not None and len(value) > count.high:
            raise _fail(place, count.count_problem(len(value)))
        for index, each in enumerate(value):
            item(each, f"{place}[{index}]")
    return listed


def _fixed_check(items: tuple[Check, ...]) -> Check:
    def fixed(value: Any, place: str) -> None:
        for index, (check, each) in enumerate(zip(items, value, strict=True)):
            check(each, f"{place}[{index}]")
    return fixed


# --- references -----------------------------------------------------------------------------------------------


def check_references(state: Encounter, place: str) -> None:
    """Every combatant, effect and held action filed under its own id; every reference names one that exists."""
    for key, combatant in state.combatants.items():
        if combatant.id != key:
            raise _fail(f"{place}.combatants.{key}", _filed_under(combatant.id, key))
    for key, effect in state.effects.items():
        if effect.id != key:
            raise _fail(f"{place}.effects.{key}", _filed_under(effect.id, key))
        if effect.target is not None and effect.target not in state.combatants:
            raise _fail(f"{place}.effects.{key}.target", _no_combatant(effect.target))
    for key, delay in state.delays.items():
        if delay.combatant != key:
            raise _fail(f"{place}.delays.{key}", _filed_under(delay.combatant, key))
        if key not in state.combatants:
            raise _fail(f"{place}.delays.{key}", _no_combatant(key))
    if state.clock.current is not None:
        _check_slot(state, state.clock.current, f"{place}.clock.current")


def _check_slot(state: Encounter, slot: Slot, place: str) -> None:
    """Whoever acts now is in the fight; a timer names its one effect (which the GM may have removed since: the
    timer then goes off as an empty slot, as the order view shows it)."""
    if slot.kind is SlotKind.TIMER:
        if len(slot.ids) != 1:
            raise _fail(f"{place}.ids", _("a timer names exactly one effect, not {count}.").format(
                count=len(slot.ids)))
        return
    if not slot.ids:
        raise _fail(f"{place}.ids", _("nobody acts in this turn."))
    for combatant_id in slot.ids:
        if combatant_id not in state.combatants:
            raise _fail(f"{place}.ids", _no_combatant(combatant_id))


def _filed_under(own: str, key: str) -> str:
    return _("it is filed under “{key}” but its id is “{id}”.").format(key=_short(key), id=_short(own))


def _no_combatant(combatant_id: str) -> str:
    return _("there is no combatant “{id}” in this fight.").format(id=_short(combatant_id))


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"
