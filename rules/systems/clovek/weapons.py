"""Člověk weapons and attacks as data: what the roll dialog reads from a saved weapon, and what reloading costs.

clovek.md, "Rolling" and "Power". A weapon is an attack profile in the game's own terms: the bank that pays and
the skill rolled (name, dots, kind), the dice usually committed, a bonus to successes, where the power comes
from (the capacity attribute of the roll's type, e.g. Constitution for a blade or a fist; or the item's own
power value, e.g. the seed's heavy pistol, value 3), a power bonus (the seed's heraldic shield, +4 in both
hands), which of the target's tracks takes the power (wounds, or stun for a blow meant to knock out), and for a
firearm its magazine (``magazine``/``rounds``, shared by every game: :mod:`rules.weapons`).

The seed is silent on ammunition and on reloading: a magazine is the GM's data (0: the weapon fires no rounds
that are counted), and what a reload costs is a **Decision**, the encounter option :data:`RELOAD_OPTION`.
"""

from __future__ import annotations

from typing import Final

from rules.encounter import Weapon
from rules.errors import RulesError
from rules.systems.base import OptionKind, OptionSpec
from rules.systems.clovek.banks import BANK_WORDS, BANKS, PHYSICAL, STUN, WOUNDS
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.rolls import PowerSource
from rules.text import N_, _, ngettext
from rules.weapons import MAGAZINE, ammunition_fields, text_field

BANK: Final[str] = "bank"
SKILL_NAME: Final[str] = "skill_name"
SKILL: Final[str] = "skill"
SKILL_KIND: Final[str] = "skill_kind"
SUPERNATURAL: Final[str] = "supernatural"
DICE: Final[str] = "dice"
BONUS: Final[str] = "bonus"
KIND: Final[str] = "kind"  # where the power comes from: a PowerSource value
VALUE: Final[str] = "value"  # the item's power value (equipment only)
POWER_BONUS: Final[str] = "power_bonus"
HARM: Final[str] = "harm"  # the kind of track the power goes on: wounds or stun
MAX_DICE: Final[int] = 40  # a bank holds 2 × its dexterity attribute, at most 20
MAX_MAGAZINE: Final[int] = 200

_KIND_WORDS: Final[dict[str, str]] = {SkillKind.TALENT: N_("talent"), SkillKind.ABILITY: N_("ability"),
                                      SkillKind.KNOWLEDGE: N_("knowledge")}

WEAPON_FIELDS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(BANK, N_("Dice bank"), OptionKind.CHOICE, PHYSICAL,
               choices=tuple((name, BANK_WORDS[name]) for name in BANKS),
               help=N_("The bank that pays for the attack: physical for blades and guns, social for a threat.")),
    text_field(SKILL_NAME, N_("Skill"), help=N_("The skill rolled, e.g. Fencing or Pistols.")),
    OptionSpec(SKILL, N_("Skill dots"), OptionKind.INT, 0, minimum=0, maximum=20,
               help=N_("A die succeeds on 10 − dots or more (never below 5).")),
    OptionSpec(SKILL_KIND, N_("Skill kind"), OptionKind.CHOICE, SkillKind.ABILITY.value,
               choices=tuple((kind.value, _KIND_WORDS[kind]) for kind in SkillKind),
               help=N_("Sets the critical range: talent 1, ability 1–2, knowledge 1–4.")),
    OptionSpec(SUPERNATURAL, N_("Supernatural skill"), OptionKind.BOOL, False, filled=False,
               help=N_("A supernatural skill rerolls every die showing 15 − dots or more, and the minimum success "
                       "number 5 always binds it.")),
    OptionSpec(DICE, N_("Dice usually committed"), OptionKind.INT, 0, minimum=0, maximum=MAX_DICE,
               help=N_("Filled into the roll, at most what the bank has left; 0: chosen each time.")),
    OptionSpec(BONUS, N_("Bonus successes"), OptionKind.INT, 0, minimum=0, maximum=50),
    OptionSpec(KIND, N_("Power from"), OptionKind.CHOICE, PowerSource.ATTRIBUTE.value,
               choices=((PowerSource.ATTRIBUTE.value, N_("Capacity attribute (blades, fists)")),
                        (PowerSource.EQUIPMENT.value, N_("The weapon's power value (firearms)")))),
    OptionSpec(VALUE, N_("Power value"), OptionKind.INT, 0, minimum=0, maximum=20,
               help=N_("A firearm's power value: base power twice the value (the heavy pistol: 3).")),
    OptionSpec(POWER_BONUS, N_("Power bonus"), OptionKind.INT, 0, minimum=0, maximum=50,
               help=N_("E.g. the heraldic shield in both hands: +4.")),
    OptionSpec(HARM, N_("The power goes on"), OptionKind.CHOICE, WOUNDS,
               choices=((WOUNDS, N_("wounds")), (STUN, N_("stun wounds")))),
    *ammunition_fields(MAX_MAGAZINE, help=N_("0: no rounds are counted (a blade, a fist).")),
)

# --- reloading ------------------------------------------------------------------------------------------
# **Decision**: the seed says nothing about ammunition or reloading. What it does say: "Akce je činnost, kterou
# postava aktivně mění situaci" (an action actively changes the situation); "Reakce … musí nějakým způsobem
# odpovídat na změnu situace v okolí, sama tuto změnu nemůže přímo vyvolat" (a reaction answers a change and
# cannot cause one); and "na každou činnost je třeba užít alespoň jednu kostku" (every activity takes at least
# one die). A reload answers nothing, so by default it is the turn's physical action and takes one physical die;
# the GM may make it a die only (as a reaction would be), or nothing the tracker counts.
RELOAD_OPTION: Final[str] = "reload_cost"
RELOAD_ACTION: Final[str] = "action"
RELOAD_DIE: Final[str] = "die"
RELOAD_FREE: Final[str] = "free"
#: The action kind :meth:`ClovekSystem.spend_action` reads as one physical die without taking the turn's action.
ONE_PHYSICAL_DIE: Final[str] = "physical_die"

RELOAD_SPEC: Final[OptionSpec] = OptionSpec(
    RELOAD_OPTION, N_("Reloading a weapon costs"), OptionKind.CHOICE, RELOAD_ACTION,
    choices=((RELOAD_ACTION, N_("A physical action and one physical die")),
             (RELOAD_DIE, N_("One physical die (like a reaction)")),
             (RELOAD_FREE, N_("Nothing the tracker counts"))),
    help=N_("The rules say nothing about reloading; an action is what actively changes the situation."))


def reload_kind(cost: object) -> str | None:
    """What :class:`~rules.weapons.Reload` spends under the encounter's reload option (None: nothing)."""
    if cost == RELOAD_FREE:
        return None
    return ONE_PHYSICAL_DIE if cost == RELOAD_DIE else PHYSICAL


# --- checking and describing ------------------------------------------------------------------------------

def check_weapon(weapon: Weapon) -> Weapon:
    """``weapon`` if the game can read its values (fields already checked); RulesError says what is wrong."""
    source = weapon.value(KIND)
    value = weapon.number(VALUE)
    if source == PowerSource.EQUIPMENT and value < 1:
        raise RulesError(_("{weapon}: a weapon whose power is its own needs a power value of 1 or more "
                           "(the heavy pistol has 3).").format(weapon=weapon.name))
    if source == PowerSource.ATTRIBUTE and value:
        raise RulesError(_("{weapon}: its power comes from the capacity attribute, so its power value must stay "
                           "0 (or choose the weapon's power value as the source).").format(weapon=weapon.name))
    if weapon.number(MAGAZINE) and weapon.value(BANK) != PHYSICAL:
        raise RulesError(_("{weapon}: only a physical attack fires rounds; leave the magazine at 0.").format(
            weapon=weapon.name))
    return weapon


def describe_weapon(weapon: Weapon) -> str:
    """"Heavy pistol · Pistols 3 · power 3", "Cudgel · Clubs 2 · +1 power · stun": what the GM knows it by (the
    dice usually committed are in the form it fills, the rounds beside the picker)."""
    skill = str(weapon.value(SKILL_NAME) or "")
    dots = weapon.number(SKILL)
    if skill.casefold() == weapon.name.casefold():  # "Intimidation 3", not "Intimidation · Intimidation 3"
        parts = [_("{skill} {dots}").format(skill=weapon.name, dots=dots)]
    else:
        parts = [weapon.name, _("{skill} {dots}").format(skill=skill, dots=dots) if skill
                 else _("skill {dots}").format(dots=dots)]
    if weapon.value(BANK) != PHYSICAL:
        parts.append(_(BANK_WORDS[str(weapon.value(BANK))]))
    if weapon.value(SUPERNATURAL) is True:
        parts.append(_("supernatural"))
    if weapon.number(BONUS):
        parts.append(ngettext("+{bonus} success", "+{bonus} successes", weapon.number(BONUS)).format(
            bonus=weapon.number(BONUS)))
    if weapon.value(KIND) == PowerSource.EQUIPMENT:
        parts.append(_("power {value}").format(value=weapon.number(VALUE)))
    if weapon.number(POWER_BONUS):
        parts.append(_("+{bonus} power").format(bonus=weapon.number(POWER_BONUS)))
    if weapon.value(HARM) == STUN:
        parts.append(_("stun"))
    return " · ".join(parts)

