"""Souboj's weapons as data: the fields a saved weapon or spell has, what they may hold, its picker line, reloading.

The seed gives a weapon one or two numbers: "Síla zbraně (1. číslo u zbraně)", the weapon strength added to an
attack, and "Obrana zbraně", the weapon defence its bearer adds against ranged, thrown and face-to-face attacks; a
firearm has "jediné číslo" (one number: its strength, usually half Dexterity + half Intelligence of the shooter),
an unarmed blow none ("nemá-li útočník zbraň"), and magic follows the spell. A saved weapon says which kind of attack
it makes, since that picks the row of the attack and defence table.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from rules.encounter import Combatant, Encounter, Weapon
from rules.errors import RulesError
from rules.systems.base import OptionKind, OptionSpec
from rules.systems.souboj.model import DEXTERITY, INTELLIGENCE, KIND_LABELS, WEAPON_DEFENCE, WEAPON_STRENGTH, Kind
from rules.text import N_, _, ngettext
from rules.weapons import MAGAZINE, ROUNDS, ammunition_fields

KIND: Final = "kind"
SPELL_DAMAGE: Final = "spell_damage"
#: souboj.md, "Critical hits": "Možné u všech zbraní, ale jen u některých kouzel" (possible with all weapons, only
#: with some spells): a spell may be critical only when marked so (default not).
MAY_BE_CRITICAL: Final = "may_be_critical"
#: The encounter option deciding whether a reload spends the round's action (a **Decision**: the seed is silent).
RELOAD_COSTS_ACTION: Final = "reload_costs_action"
#: Kinds loaded with rounds a reload fills: firearms, and bows or crossbows (a crossbow holds its one bolt).
LOADED_KINDS: Final = frozenset({Kind.FIREARM, Kind.RANGED})
LIMIT: Final = 99
MAX_ROUNDS: Final = 999
MAX_SPELL_DAMAGE: Final = 9999

#: A kind as the picker line names it, short.
KIND_SHORT_LABELS: Final[Mapping[Kind, str]] = MappingProxyType({
    Kind.MAGIC: N_("magic"),
    Kind.RANGED: N_("ranged"),
    Kind.THROWN: N_("thrown"),
    Kind.FIREARM: N_("firearm"),
    Kind.MELEE: N_("melee"),
    Kind.UNARMED: N_("unarmed"),
})

WEAPON_FIELDS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(KIND, N_("Kind"), OptionKind.CHOICE, Kind.MELEE.value,
               choices=tuple((kind.value, label) for kind, label in KIND_LABELS.items()),
               help=N_("Which row of the attack and defence table the weapon uses.")),
    OptionSpec(WEAPON_STRENGTH, N_("Weapon strength"), OptionKind.INT, 0, minimum=0, maximum=LIMIT,
               help=N_("The weapon's first number, added to the attack; a firearm's only number (usually half the "
                       "shooter's Dexterity + half its Intelligence).")),
    OptionSpec(WEAPON_DEFENCE, N_("Weapon defence"), OptionKind.INT, 0, minimum=0, maximum=LIMIT,
               help=N_("The weapon's second number, added to its bearer's defence against ranged, thrown and "
                       "face-to-face attacks.")),
    OptionSpec(SPELL_DAMAGE, N_("Spell's damage"), OptionKind.INT, 0, minimum=0, maximum=MAX_SPELL_DAMAGE,
               help=N_("A spell's damage when it is always the same (0: typed for each casting).")),
    OptionSpec(MAY_BE_CRITICAL, N_("Spell may be critical"), OptionKind.BOOL, False,
               help=N_("A critical hit is “possible with all weapons, only with some spells”: mark the spells "
                       "that may be critical."), filled=False),
    *ammunition_fields(MAX_ROUNDS, N_("Magazine"),
                       N_("Rounds (bolts, arrows) a full load holds; 0: not loaded with rounds.")),
)


def suggested_firearm_number(shooter: Combatant) -> int:
    """souboj.md: a firearm's number is "usually half Dexterity + half Intelligence"; **Decision**: entered per
    weapon and shooter, suggested (the shooter's Dex + Int) ÷ 2, rounded down."""
    return (shooter.attribute(DEXTERITY) + shooter.attribute(INTELLIGENCE)) // 2


def weapon_kind(weapon: Weapon) -> Kind:
    """The kind of attack a (checked) weapon makes; melee when it names none."""
    value = weapon.value(KIND)
    return Kind(value) if isinstance(value, str) and value in set(Kind) else Kind.MELEE


def check_weapon(weapon: Weapon) -> Weapon:
    """``weapon`` if its numbers mean something for its kind; RulesError naming the weapon otherwise."""
    kind = weapon_kind(weapon)
    strength, defence = weapon.number(WEAPON_STRENGTH), weapon.number(WEAPON_DEFENCE)
    if kind is Kind.MAGIC and (strength or defence):
        raise RulesError(_("{weapon}: magic follows the spell; a spell has no weapon strength or defence.").format(
            weapon=weapon.name))
    if kind is Kind.UNARMED and (strength or defence):
        raise RulesError(_("{weapon}: unarmed means without a weapon (1d6 + Strength); its weapon strength and "
                           "defence are 0.").format(weapon=weapon.name))
    if kind is Kind.FIREARM and defence:
        raise RulesError(_("{weapon}: a firearm has one number, its weapon strength; it has no weapon defence.")
                         .format(weapon=weapon.name))
    if kind is not Kind.MAGIC and weapon.number(SPELL_DAMAGE):
        raise RulesError(_("{weapon}: only a spell deals its damage directly.").format(weapon=weapon.name))
    if kind is not Kind.MAGIC and weapon.value(MAY_BE_CRITICAL) is True:
        raise RulesError(_("{weapon}: every weapon may be critical; the mark is for spells, only some of which "
                           "may be.").format(weapon=weapon.name))
    if kind not in LOADED_KINDS and (weapon.number(MAGAZINE) or weapon.number(ROUNDS)):
        raise RulesError(_("{weapon}: only a firearm, bow or crossbow is loaded with rounds.").format(
            weapon=weapon.name))
    return weapon


def may_be_critical(weapon: Weapon) -> bool:
    """Whether an attack with ``weapon`` may be critical: every weapon may, a spell only when marked so."""
    return weapon_kind(weapon) is not Kind.MAGIC or weapon.value(MAY_BE_CRITICAL) is True


def describe_weapon(weapon: Weapon) -> str:
    """``Long sword (melee 6/3)``, ``Pistol (firearm 7)``, ``Fire bolt (magic, 7 damage)``, ``Fists (unarmed)``."""
    kind = weapon_kind(weapon)
    label = _(KIND_SHORT_LABELS[kind])
    if kind is Kind.MAGIC and weapon.number(SPELL_DAMAGE):
        damage = weapon.number(SPELL_DAMAGE)
        return ngettext("{name} ({kind}, {count} damage)", "{name} ({kind}, {count} damage)", damage).format(
            name=weapon.name, kind=label, count=damage)
    if kind in (Kind.MAGIC, Kind.UNARMED):
        return _("{name} ({kind})").format(name=weapon.name, kind=label)
    strength, defence = weapon.number(WEAPON_STRENGTH), weapon.number(WEAPON_DEFENCE)
    numbers = f"{strength}/{defence}" if defence or kind is Kind.MELEE else str(strength)
    return _("{name} ({kind} {numbers})").format(name=weapon.name, kind=label, numbers=numbers)


def reloading_costs_action(encounter: Encounter) -> bool:
    """Whether a reload spends the round's action (encounter option, default yes)."""
    return encounter.options.get(RELOAD_COSTS_ACTION, True) is not False


def reload_costs(combatant: Combatant, weapon: Weapon, encounter: Encounter) -> bool:
    """Whether reloading ``weapon`` now spends ``combatant``'s action for the round.

    The seed says nothing about reloading: its attack rules name firearms ("palnou zbraní") and missile weapons
    ("střelnou a vrhací zbraní") but never their ammunition. **Decision** (option ``reload_costs_action``,
    default on): a reload is what the creature does with its turn, so it spends the one action of the round, at
    its own initiative. Before the fight, or between rounds (no initiative rolled yet), no round is being played
    and a reload costs nothing.
    """
    del combatant, weapon  # every weapon reloads alike: the seed gives no slower or faster reload
    return reloading_costs_action(encounter) and encounter.clock.pass_no > 0
