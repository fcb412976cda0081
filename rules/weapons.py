"""Weapons as data: what a combatant carries, checked against its game's fields; ammunition; the last attack.

A game names its weapons' fields with :meth:`RuleSystem.weapon_fields` (the same :class:`OptionSpec` values its
encounter options use, so one form edits both), and checks what the numbers mean with
:meth:`RuleSystem.check_weapon`. Two keys mean the same in every game that uses them:

* ``magazine``: the rounds a full load holds (0 or absent: the weapon is not loaded with rounds: a sword,
  a bow, a grenade);
* ``rounds``: the rounds loaded now. An attack fires some (:func:`fire`); :class:`Reload` fills the magazine and
  costs the action the game says (:meth:`RuleSystem.reload_action`).

Which weapon an attacker used last, and at whom, is read from the history (:func:`last_attack`): an attack
operation says so with :meth:`Operation.attack_record`, so it survives saving, undo and crash recovery alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from rules.encounter import Combatant, Encounter, JsonValue, Weapon, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import Applied, AttackRecord, LogLine, Operation, require_combatant
from rules.systems.base import OptionKind, OptionSpec
from rules.text import N_, _, ngettext

if TYPE_CHECKING:
    from rules.history import Entry
    from rules.systems.base import RuleSystem

MAGAZINE: Final[str] = "magazine"
ROUNDS: Final[str] = "rounds"
MAX_WEAPONS: Final[int] = 40
MAX_WEAPON_NAME: Final[int] = 80
MAX_TEXT_VALUE: Final[int] = 80


# --- checking -----------------------------------------------------------------------------------

def _checked_value(spec: OptionSpec, value: JsonValue, weapon: str) -> JsonValue:
    if spec.kind is OptionKind.TEXT:
        if not isinstance(value, str) or len(value) > MAX_TEXT_VALUE:
            raise RulesError(_("{weapon}: “{field}” must be text of at most {limit} characters.").format(
                weapon=weapon, field=_(spec.label), limit=MAX_TEXT_VALUE))
        return value.strip()
    try:
        return spec.validate(value)
    except RulesError:
        raise RulesError(_("{weapon}: “{field}” cannot be {value}.").format(
            weapon=weapon, field=_(spec.label), value=_shown(spec, value))) from None


def _shown(spec: OptionSpec, value: JsonValue) -> str:
    """The refused value as a message quotes it: its start only (a hostile file's value may be megabytes long)."""
    if spec.kind is OptionKind.INT and spec.minimum is not None and spec.maximum is not None:
        return _("{value} (from {minimum} to {maximum})").format(value=repr(value)[:40], minimum=spec.minimum,
                                                              maximum=spec.maximum)
    return repr(value)[:40]


def checked_weapon(weapon: Weapon, fields: Sequence[OptionSpec]) -> Weapon:
    """``weapon`` with its values checked against ``fields`` (missing ones get the field's default, unknown keys
    are refused) and its rounds within its magazine; RulesError names the weapon and the field."""
    name = weapon.name.strip()
    if not name:
        raise RulesError(_("A weapon needs a name."))
    if len(name) > MAX_WEAPON_NAME:
        raise RulesError(_("The weapon name “{name}…” is too long (at most {limit} characters).").format(
            name=name[:20], limit=MAX_WEAPON_NAME))
    by_key = {spec.key: spec for spec in fields}
    unknown = sorted(key for key in weapon.values if key not in by_key)
    if unknown:
        raise RulesError(_("{weapon}: this game's weapons have no field “{field}”.").format(
            weapon=name, field=unknown[0][:40]))
    values = {spec.key: _checked_value(spec, weapon.values.get(spec.key, spec.default), name) for spec in fields}
    values = {key: value for key, value in values.items() if by_key[key].filled or value != by_key[key].default}
    checked = Weapon(name, frozen_map(values))
    if ROUNDS in by_key and MAGAZINE in by_key and checked.number(ROUNDS) > checked.number(MAGAZINE):
        raise RulesError(_("{weapon}: {rounds} rounds loaded, but the magazine holds {magazine}.").format(
            weapon=name, rounds=checked.number(ROUNDS), magazine=checked.number(MAGAZINE)))
    return checked


def checked_weapons(weapons: Iterable[Weapon], system: RuleSystem) -> tuple[Weapon, ...]:
    """A combatant's weapons checked by its game: fields, meaning, unique names, at most :data:`MAX_WEAPONS`."""
    checked: list[Weapon] = []
    for given in weapons:
        if len(checked) == MAX_WEAPONS:
            raise RulesError(_("At most {limit} weapons per combatant.").format(limit=MAX_WEAPONS))
        weapon = system.check_weapon(checked_weapon(given, system.weapon_fields()))
        if any(other.name.casefold() == weapon.name.casefold() for other in checked):
            raise RulesError(_("Two weapons are called “{name}”: give each its own name.").format(name=weapon.name))
        checked.append(weapon)
    return tuple(checked)


def weapon_from_data(data: object) -> Weapon:
    """A weapon read from JSON (``{"name": …, <field>: value, …}``), not yet checked against a game."""
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        raise RulesError(_("A weapon must be an object with a name."))
    values = {str(key): value for key, value in data.items() if key != "name"}
    for key, value in values.items():
        if not (value is None or isinstance(value, bool | int | str)):
            raise RulesError(_("{weapon}: “{field}” must be a number, text or yes/no.").format(
                weapon=data["name"][:40], field=key[:40]))
    return Weapon(data["name"], frozen_map(values))


def weapon_to_data(weapon: Weapon) -> dict[str, JsonValue]:
    """The JSON form :func:`weapon_from_data` reads."""
    return {"name": weapon.name, **weapon.values}


# --- ammunition ---------------------------------------------------------------------------------

def uses_rounds(weapon: Weapon) -> bool:
    """Whether the weapon is loaded with rounds that attacks count down."""
    return weapon.number(MAGAZINE) > 0


def ammunition_text(weapon: Weapon) -> str:
    """``7/15 rounds`` for a loaded weapon, "" for one without a magazine."""
    if not uses_rounds(weapon):
        return ""
    return ngettext("{rounds}/{magazine} round", "{rounds}/{magazine} rounds", weapon.number(MAGAZINE)).format(
        rounds=weapon.number(ROUNDS), magazine=weapon.number(MAGAZINE))


def fire(encounter: Encounter, combatant_id: str, weapon_name: str, rounds: int) -> Encounter:
    """The encounter with ``rounds`` fired from the combatant's weapon (a weapon without a magazine, or none
    named: unchanged); OperationError when fewer are loaded, naming the weapon and what is left."""
    if not weapon_name or rounds <= 0:
        return encounter
    combatant = require_combatant(encounter, combatant_id)
    weapon = combatant.weapon(weapon_name)
    if weapon is None or not uses_rounds(weapon):
        return encounter
    left = weapon.number(ROUNDS)
    if rounds > left:
        raise OperationError(ngettext(
            "{weapon} has {left} round left, not enough for {rounds}: reload first.",
            "{weapon} has {left} rounds left, not enough for {rounds}: reload first.", left).format(
                weapon=weapon.name, left=left, rounds=rounds))
    return encounter.with_combatant(combatant.with_weapon(weapon.with_value(ROUNDS, left - rounds)))


@dataclass(frozen=True)
class SetWeapons(Operation):
    """Replace what a combatant carries (the weapons editor of the details panel)."""

    kind = "set_weapons"
    combatant_id: str
    weapons: tuple[Weapon, ...]

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        try:
            weapons = checked_weapons(self.weapons, system)
        except RulesError as problem:
            raise OperationError(str(problem)) from None
        line = LogLine("{name}'s weapons changed.", {"name": combatant.name})
        return Applied(encounter.with_combatant(replace(combatant, weapons=weapons)), (line,))


@dataclass(frozen=True)
class Reload(Operation):
    """Fill a weapon's magazine; the game says which action it costs (:meth:`RuleSystem.reload_action`)."""

    kind = "reload"
    combatant_id: str
    weapon: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        weapon = combatant.weapon(self.weapon)
        if weapon is None:
            raise OperationError(_("{name} carries no weapon called “{weapon}”.").format(
                name=combatant.name, weapon=self.weapon))
        if not uses_rounds(weapon):
            raise OperationError(_("{weapon} has no magazine to reload.").format(weapon=weapon.name))
        if weapon.number(ROUNDS) >= weapon.number(MAGAZINE):
            raise OperationError(_("{weapon} is already fully loaded.").format(weapon=weapon.name))
        action = system.reload_action(combatant, weapon, encounter)
        if action:
            combatant = system.spend_action(combatant, action, encounter)
        reloaded = combatant.with_weapon(weapon.with_value(ROUNDS, weapon.number(MAGAZINE)))
        line = LogLine("{name} reloads the {weapon}.", {"name": combatant.name, "weapon": weapon.name})
        return Applied(encounter.with_combatant(reloaded), (line,))


# --- the last attack ----------------------------------------------------------------------------

def last_attack(entries: Sequence[Entry], attacker_id: str, limit: int = 500) -> AttackRecord | None:
    """The latest attack ``attacker_id`` made among the last ``limit`` history entries (None: none).

    Bounded so a long fight's history is never read whole while a dialog opens; an attack older than that is
    forgotten (the dialog then starts from the first weapon).
    """
    for entry in reversed(entries[-limit:] if limit else entries):
        record = _record_of(entry.operation, attacker_id)
        if record is not None:
            return record
    return None


def _record_of(operation: Operation, attacker_id: str) -> AttackRecord | None:
    for part in reversed(operation.parts()):
        record = part.attack_record()
        if record is not None and record.attacker_id == attacker_id:
            return record
    return None


def preferred_weapon(combatant: Combatant, record: AttackRecord | None) -> Weapon | None:
    """The weapon an attack dialog starts with: the one used last, else the first carried (None: none)."""
    if record is not None and record.weapon:
        used = combatant.weapon(record.weapon)
        if used is not None:
            return used
    return combatant.weapons[0] if combatant.weapons else None


def weapon_to_reload(combatant: Combatant, record: AttackRecord | None) -> Weapon | None:
    """What a reload fills: the weapon used last if it is not full, else the first that is not (None: all full)."""
    emptied = [weapon for weapon in combatant.weapons
               if uses_rounds(weapon) and weapon.number(ROUNDS) < weapon.number(MAGAZINE)]
    used = next((weapon for weapon in emptied if record is not None and weapon.name == record.weapon), None)
    return used or (emptied[0] if emptied else None)


def fully_loaded(weapons: Iterable[Weapon]) -> tuple[Weapon, ...]:
    """``weapons`` with every magazine full (a fresh copy of a combatant, a template's weapons)."""
    return tuple(weapon.with_value(ROUNDS, weapon.number(MAGAZINE)) if uses_rounds(weapon) else weapon
                 for weapon in weapons)


def ammunition_fields(maximum: int, label: str = N_("Magazine (rounds)"), help: str = "") -> tuple[OptionSpec, ...]:
    """The two shared fields :func:`fire` and :class:`Reload` count with: the magazine and the rounds loaded.

    ``label`` and ``help`` (N_-marked) say it in the game's own terms; ``maximum`` bounds both.
    """
    return (OptionSpec(MAGAZINE, label, OptionKind.INT, 0, minimum=0, maximum=maximum, help=help),
            OptionSpec(ROUNDS, N_("Rounds loaded"), OptionKind.INT, 0, minimum=0, maximum=maximum))


def text_field(key: str, label: str, default: str = "", help: str = "") -> OptionSpec:
    """A free-text weapon field (a damage code, a dice expression), checked by the game's ``check_weapon``."""
    return OptionSpec(key, label, OptionKind.TEXT, default, help=help)
