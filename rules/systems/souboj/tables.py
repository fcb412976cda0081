"""Souboj's data: ``rules/systems/souboj/data.json`` merged with the GM's overrides (option ``tables``) and checked.

The attack and defence table of the digest (which numbers each kind of attack adds), the damage rules per
kind (Strength added? armor subtracted? may it be flat? may the GM call a critical?), the cap of the critical
multiplier, and the shadow damage recovery. Overrides merge key by key; anything that does not fit is refused
with the dotted path of the offending key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Final

from rules.errors import RulesError
from rules.systems.souboj.model import (
    DEXTERITY,
    ENDURANCE,
    INTELLIGENCE,
    LEVEL,
    STRENGTH,
    WEAPON_DEFENCE,
    WEAPON_STRENGTH,
    Kind,
)
from rules.text import _

SCHEMA: Final = 1
#: Numbers an attack or defence roll may add (combatant attributes; the weapon numbers included).
ROLL_PARTS: Final = (STRENGTH, DEXTERITY, INTELLIGENCE, ENDURANCE, LEVEL, WEAPON_STRENGTH, WEAPON_DEFENCE)
#: Kinds with a table row (magic follows the spell).
WEAPON_KINDS: Final = tuple(kind for kind in Kind if kind is not Kind.MAGIC)
_FLAGS: Final = ("damage_strength", "damage_armor", "flat", "gm_critical")


@dataclass(frozen=True)
class KindRule:
    """One row of the attack and defence table, with the damage rule of that kind."""

    attack: tuple[str, ...]
    defence: tuple[str, ...]
    damage_strength: bool  # the attacker's Strength is added to the base
    damage_armor: bool  # the armor quality is subtracted
    flat: bool  # may be made flat, for shadow damage
    gm_critical: bool  # may be critical on the GM's call alone


@dataclass(frozen=True)
class SoubojTables:
    """All of Souboj's numbers after the GM's overrides."""

    kinds: Mapping[Kind, KindRule]
    critical_cap: int
    shadow_recovery_rounds: int
    shadow_removed: Fraction
    seconds_per_round: int

    def rule(self, kind: Kind) -> KindRule:
        """The row of ``kind``; magic has none (RulesError)."""
        if kind not in self.kinds:
            raise RulesError(_("Magic follows the spell: enter its damage directly."))
        return self.kinds[kind]


def _fail(path: str, expected: str, value: object) -> RulesError:
    return RulesError(_("Souboj data: {path} must be {expected}, not {value!r}.").format(
        path=path, expected=expected, value=value))


def _merge(default: Mapping[str, object], override: object, path: str) -> dict[str, object]:
    """Merge ``override`` into ``default`` key by key; unknown keys are typos and refused."""
    if not isinstance(override, Mapping):
        raise _fail(path or "/", _("a group of settings"), override)
    merged = dict(default)
    for key, value in override.items():
        child = f"{path}.{key}" if path else str(key)
        if key not in default:
            raise RulesError(_("Souboj data: unknown setting {path}.").format(path=child))
        base = default[key]
        merged[key] = _merge(base, value, child) if isinstance(base, Mapping) else value
    return merged


def _integer(value: object, path: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _fail(path, _("a whole number of at least {minimum}").format(minimum=minimum), value)
    return value


def _parts(value: object, path: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(item, str) and item in ROLL_PARTS
                                                      for item in value):
        raise _fail(path, _("a list of {names}").format(names=", ".join(ROLL_PARTS)), value)
    return tuple(value)


def _kind_rule(value: object, path: str) -> KindRule:
    if not isinstance(value, Mapping):
        raise _fail(path, _("a group of settings"), value)
    flags = {}
    for name in _FLAGS:
        flag = value.get(name)
        if not isinstance(flag, bool):
            raise _fail(f"{path}.{name}", _("true or false"), flag)
        flags[name] = flag
    return KindRule(_parts(value.get("attack"), f"{path}.attack"), _parts(value.get("defence"), f"{path}.defence"),
                    **flags)


def _fraction(value: object, path: str) -> Fraction:
    if not isinstance(value, Mapping):
        raise _fail(path, _("a group of settings"), value)
    numerator = _integer(value.get("numerator"), f"{path}.numerator", 0)
    denominator = _integer(value.get("denominator"), f"{path}.denominator", 1)
    if numerator > denominator:
        raise _fail(path, _("a part of the whole (numerator at most the denominator)"), dict(value))
    return Fraction(numerator, denominator)


def _build(data: Mapping[str, object]) -> SoubojTables:
    if data.get("schema") != SCHEMA:
        raise _fail("schema", str(SCHEMA), data.get("schema"))
    kinds = data.get("kinds")
    if not isinstance(kinds, Mapping):
        raise _fail("kinds", _("a group of settings"), kinds)
    rules: dict[Kind, KindRule] = {kind: _kind_rule(kinds.get(kind.value), f"kinds.{kind.value}")
                                   for kind in WEAPON_KINDS}
    return SoubojTables(
        kinds=MappingProxyType(rules),
        critical_cap=_integer(data.get("critical_cap"), "critical_cap", 1),
        shadow_recovery_rounds=_integer(data.get("shadow_recovery_rounds"), "shadow_recovery_rounds", 1),
        shadow_removed=_fraction(data.get("shadow_removed"), "shadow_removed"),
        seconds_per_round=_integer(data.get("seconds_per_round"), "seconds_per_round", 1),
    )


@cache
def _bundled_text() -> str:
    return resources.files("rules.systems.souboj").joinpath("data.json").read_text(encoding="utf-8")


def bundled_data() -> dict[str, object]:
    """A fresh copy of the bundled data (for a settings editor to show the defaults)."""
    data: dict[str, object] = json.loads(_bundled_text())
    return data


@cache
def _default_tables() -> SoubojTables:
    return _build(bundled_data())


def load_tables(overrides: Mapping[str, object] | None = None) -> SoubojTables:
    """The tables with the GM's ``overrides`` merged in key by key; RulesError if they do not fit."""
    if not overrides:
        return _default_tables()
    return _build(_merge(bundled_data(), overrides, ""))
