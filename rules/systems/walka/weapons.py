"""Walka's weapons as data: weapon dice, what the weapon is, the skill its attack rolls, and its magazine.

The chapter's damage pool starts from "kości broni" (the weapon dice: "Pula kości obrażeń = kości broni +
modyfikatory − pancerz"), and an attacker "rzuca swoją umiejętnością bojową (Broń palna / Broń biała / Bijatyka /
Interfejs)" (rolls its combat skill: Firearms / Melee weapons / Brawling / Interface). So a weapon carries its
dice, its kind (a firearm, a melee weapon, bare hands, a cyber-attack) and the skill it is used with; the kind
says which skills can use it (a cyber-attack is rolled with Interface, a gun with Firearms).

**Decision** (the chapter is silent on ammunition): a firearm may have a magazine (``magazine`` rounds, 0: not
counted); each attack with it fires one round (the chapter knows no bursts), and reloading costs the action the
encounter option ``reload_action`` names (by default a non-combat action, see :data:`RELOAD_CHOICES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from rules.encounter import Weapon
from rules.errors import RulesError
from rules.systems.base import OptionKind, OptionSpec
from rules.systems.walka import actions
from rules.systems.walka.skills import ATTACK_SKILLS, BRAWLING, FIREARMS, INTERFACE, MELEE, attack_skill_label
from rules.text import N_, _, ngettext
from rules.weapons import MAGAZINE, ROUNDS, ammunition_fields

DICE, KIND, SKILL = "dice", "kind", "skill"
FIREARM, MELEE_WEAPON, UNARMED, CYBER = "firearm", "melee", "unarmed", "cyber"
MAX_DICE: Final[int] = 30  # as the weapon dice attribute
MAX_MAGAZINE: Final[int] = 200
ROUNDS_PER_ATTACK: Final[int] = 1  # the chapter has no bursts: one attack, one round

KIND_LABELS: Final[Mapping[str, str]] = MappingProxyType({
    FIREARM: N_("Firearm"),
    MELEE_WEAPON: N_("Melee weapon"),
    UNARMED: N_("Unarmed"),
    CYBER: N_("Cyber-attack"),
})

#: The combat skills each kind of weapon is used with. Brawling with a melee weapon stays possible (a bottle, a
#: pipe swung in a brawl); a gun is fired with Firearms and a cyber-attack rolled with Interface, nothing else.
KIND_SKILLS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({
    FIREARM: (FIREARMS,),
    MELEE_WEAPON: (MELEE, BRAWLING),
    UNARMED: (BRAWLING,),
    CYBER: (INTERFACE,),
})

FIELDS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(DICE, N_("Weapon dice"), OptionKind.INT, 2, minimum=0, maximum=MAX_DICE,
               help=N_("The damage pool starts from these d6.")),
    OptionSpec(KIND, N_("Kind"), OptionKind.CHOICE, FIREARM, choices=tuple(KIND_LABELS.items())),
    OptionSpec(SKILL, N_("Skill"), OptionKind.CHOICE, FIREARMS, choices=tuple(ATTACK_SKILLS.items())),
    *ammunition_fields(MAX_MAGAZINE, N_("Magazine (rounds; 0: not counted)")),
)

# --- reloading: a Decision, the chapter never mentions it ------------------------------------------------
RELOAD_OPTION: Final[str] = "reload_action"
RELOAD_FREE: Final[str] = "none"
#: What reloading costs. The chapter lists "Wykorzystanie przedmiotu, szukanie punktu dostępowego, stabilizacja
#: członka drużyny, wyperswadowanie rozejmu to wszystko jest akcją" (using an item, ... is an action you can take
#: during combat): putting in a fresh magazine is using an item, hence the default. The other readings:
#: "Zmiana broni zawsze zajmuje akcję" (changing weapon always takes an action, and an attack after it in the
#: same round takes a penalty die), or a reload costs nothing the tracker counts.
RELOAD_CHOICES: Final[tuple[tuple[str, str], ...]] = (
    (actions.NON_COMBAT, N_("a non-combat action (using an item)")),
    (actions.CHANGE_WEAPON, N_("an action as a weapon change (an attack after it this round: +1 penalty die)")),
    (RELOAD_FREE, N_("no action")),
)
RELOAD_SPEC: Final[OptionSpec] = OptionSpec(
    RELOAD_OPTION, N_("Reloading a magazine takes"), OptionKind.CHOICE, actions.NON_COMBAT, choices=RELOAD_CHOICES,
    help=N_("The chapter says nothing about reloading; by default it is an action like using an item."))


def reload_kind(option: object) -> str | None:
    """The action kind a reload spends by the option's value (None: it costs no action)."""
    if option == RELOAD_FREE:
        return None
    return actions.CHANGE_WEAPON if option == actions.CHANGE_WEAPON else actions.NON_COMBAT


# --- checking and describing ------------------------------------------------------------------------------

def kind_label(kind: str) -> str:
    """The translated name of a kind of weapon (the key itself if unknown)."""
    return _(KIND_LABELS[kind]) if kind in KIND_LABELS else kind


def check(weapon: Weapon) -> Weapon:
    """``weapon`` (its fields already within range) if Walka can read it; RulesError says what is wrong."""
    kind, skill = str(weapon.value(KIND)), str(weapon.value(SKILL))
    allowed = KIND_SKILLS.get(kind, ())
    if skill not in allowed:
        raise RulesError(_("{weapon} ({kind}) attacks with {skills}, not with {skill}.").format(
            weapon=weapon.name, kind=kind_label(kind), skill=attack_skill_label(skill),
            skills=", ".join(attack_skill_label(key) for key in allowed)))
    if weapon.number(MAGAZINE) and kind != FIREARM:
        raise RulesError(_("{weapon} ({kind}) has no magazine: only firearms are loaded with rounds.").format(
            weapon=weapon.name, kind=kind_label(kind)))
    return weapon


def describe(weapon: Weapon) -> str:
    """``SMG · 3 dice``: the picker's line, the name and the weapon dice a GM knows it by (its skill is the form's
    next row, its rounds are shown beside it: a longer line was cut off in Russian on a laptop)."""
    dice = weapon.number(DICE)
    return ngettext("{name} · {count} die", "{name} · {count} dice", dice).format(name=weapon.name, count=dice)


def skill_of(weapon: Weapon) -> str:
    """The attack skill the weapon is used with (Firearms for one read without a skill)."""
    skill = weapon.value(SKILL)
    return skill if isinstance(skill, str) and skill in ATTACK_SKILLS else FIREARMS


def make_weapon(name: str, dice: int, kind: str = FIREARM, skill: str | None = None, magazine: int = 0) -> Weapon:
    """A weapon as a sample or a test writes it: its kind's first skill unless told, a full magazine."""
    values: dict[str, int | str] = {DICE: dice, KIND: kind, SKILL: skill or KIND_SKILLS[kind][0]}
    if magazine:
        values.update({MAGAZINE: magazine, ROUNDS: magazine})
    return Weapon(name, MappingProxyType(values))
