"""Člověk operations on the dice banks: spend, burn stun for dice, refill, initiative dice, capacity names.

Clicking a die in the banks widget spends dice (an action or a reaction); burning is its own operation, so a
bank can never be topped up in the middle of a roll. Rolls with their consequences are
:class:`~rules.systems.clovek.check.ClovekCheck`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rules.encounter import ADDED_LATER, Encounter, with_item, without_item
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.clovek.banks import (
    BANK_WORDS,
    CAPACITY_NAMES,
    INITIATIVE_DICE,
    MENTAL,
    SOCIAL,
    bank,
    check_bank,
    extra_map,
    refilled,
    with_extra,
)
from rules.systems.clovek.economy import (
    ACTION,
    REACTION,
    burn_stun,
    check_role,
    grant_of,
    restore_dice,
    spend_dice,
    take_action,
)
from rules.text import N_, _

MAX_PURPOSE = 200


class BurnFor(StrEnum):
    """What burnt stun wounds pay for: the seed's list ("Also burnt: … for some special manoeuvres or abilities;
    for special equipment, or equipment the character's attributes are too low for")."""

    DICE = "dice"  # one die of the bank back per wound
    MANOEUVRE = "manoeuvre"  # a special manoeuvre or ability
    EQUIPMENT = "equipment"  # special equipment, or equipment too demanding for the character


#: How the panel names each purpose (translated when shown).
BURN_FOR_LABELS: dict[BurnFor, str] = {
    BurnFor.DICE: N_("dice back"),
    BurnFor.MANOEUVRE: N_("a manoeuvre or ability"),
    BurnFor.EQUIPMENT: N_("equipment"),
}


def spend_line(name: str, dice: int, bank_name: str, role: str, purpose: str) -> LogLine:
    """"Beatrice spends 3 physical dice on an action (jump)"."""
    args: dict[str, str | int] = {"name": name, "count": dice, "bank": BANK_WORDS[bank_name]}
    if purpose:
        args["purpose"] = purpose
        if role == ACTION:
            return LogLine("{name} spends {count} {bank} die on an action: {purpose}.", args,
                           plural="{name} spends {count} {bank} dice on an action: {purpose}.", count=dice,
                           translate=("bank",))
        return LogLine("{name} spends {count} {bank} die on a reaction: {purpose}.", args,
                       plural="{name} spends {count} {bank} dice on a reaction: {purpose}.", count=dice,
                       translate=("bank",))
    if role == ACTION:
        return LogLine("{name} spends {count} {bank} die on an action.", args,
                       plural="{name} spends {count} {bank} dice on an action.", count=dice, translate=("bank",))
    return LogLine("{name} spends {count} {bank} die on a reaction.", args,
                   plural="{name} spends {count} {bank} dice on a reaction.", count=dice, translate=("bank",))


def bonus_line(name: str, bank_name: str) -> LogLine:
    """The stun wound a bonus action cost."""
    return LogLine("{name} burns a {bank} stun wound for a bonus action.",
                   {"name": name, "bank": BANK_WORDS[bank_name]}, translate=("bank",))


@dataclass(frozen=True)
class ClovekSpend(Operation):
    """Spend dice from a bank on an action (own turn, one type per round) or a reaction (any time), unrolled."""

    kind = "clovek_spend"
    combatant_id: str
    bank: str
    dice: int
    role: str = REACTION
    free_bonus_action: bool = False  # an older fight's "without burning" (before ``extra_action``)
    purpose: str = ""
    #: What grants an action after the first (an :class:`~rules.systems.clovek.economy.ExtraAction`); None in
    #: fights recorded before Bojovka asked, when any extra action was allowed.
    extra_action: str | None = field(default=None, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        check_bank(self.bank)
        check_role(self.role)
        if len(self.purpose) > MAX_PURPOSE:
            raise OperationError(_("Say what the dice are for in at most {limit} characters.").format(
                limit=MAX_PURPOSE))
        lines = []
        if self.role == ACTION:
            grant = grant_of(self.extra_action, self.free_bonus_action, encounter, system)
            combatant, burnt = take_action(combatant, self.bank, encounter, grant)
            if burnt:
                lines.append(bonus_line(combatant.name, self.bank))
        combatant = spend_dice(combatant, self.bank, self.dice)
        lines.insert(0, spend_line(combatant.name, self.dice, self.bank, self.role, self.purpose))
        return Applied(encounter.with_combatant(combatant), tuple(lines))


@dataclass(frozen=True)
class ClovekBurn(Operation):
    """Burn stun wounds of a bank's type: for as many of its dice back (never mid-roll, never above maximum), or
    to pay for a special manoeuvre, an ability or equipment (``purpose``, with what it is in ``note``). Every burn
    counts against the round's limit (the type's dexterity attribute)."""

    kind = "clovek_burn"
    combatant_id: str
    bank: str
    count: int
    purpose: str = field(default=BurnFor.DICE.value, metadata=ADDED_LATER)
    note: str = field(default="", metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        name = check_bank(self.bank)
        if self.purpose not in set(BurnFor):
            raise OperationError(_("Burnt stun pays for dice, a manoeuvre or ability, or equipment."))
        if len(self.note) > MAX_PURPOSE:
            raise OperationError(_("Say what the stun wounds pay for in at most {limit} characters.").format(
                limit=MAX_PURPOSE))
        if self.purpose == BurnFor.DICE:
            updated = restore_dice(combatant, name, self.count, encounter)
            line = LogLine("{name} burns {count} {bank} stun wound for {count} die.",
                           {"name": combatant.name, "count": self.count, "bank": BANK_WORDS[name]},
                           plural="{name} burns {count} {bank} stun wounds for {count} dice.", count=self.count,
                           translate=("bank",))
        else:
            updated = burn_stun(combatant, name, self.count, encounter)
            line = _paid_line(combatant.name, name, self.count, BurnFor(self.purpose), self.note.strip())
        return Applied(encounter.with_combatant(updated), (line,))


def _paid_line(name: str, bank_name: str, count: int, purpose: BurnFor, note: str) -> LogLine:
    """"Cesare burns 1 physical stun wound for a manoeuvre or ability: a leap over the cart"."""
    args: dict[str, str | int] = {"name": name, "count": count, "bank": BANK_WORDS[bank_name],
                                  "purpose": BURN_FOR_LABELS[purpose]}
    if note:
        args["note"] = note
        return LogLine("{name} burns {count} {bank} stun wound for {purpose}: {note}.", args,
                       plural="{name} burns {count} {bank} stun wounds for {purpose}: {note}.", count=count,
                       translate=("bank", "purpose"))
    return LogLine("{name} burns {count} {bank} stun wound for {purpose}.", args,
                   plural="{name} burns {count} {bank} stun wounds for {purpose}.", count=count,
                   translate=("bank", "purpose"))


@dataclass(frozen=True)
class RefillBanks(Operation):
    """Refill the banks by hand (a round of a conflict run without initiative, a new scene); None = everyone."""

    kind = "clovek_refill"
    combatant_id: str | None = None

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        if self.combatant_id is not None:
            combatant = require_combatant(encounter, self.combatant_id)
            line = LogLine("{name}'s dice banks are full again.", {"name": combatant.name})
            return Applied(encounter.with_combatant(refilled(combatant)), (line,))
        state = encounter
        for combatant in encounter.combatants.values():
            state = state.with_combatant(refilled(combatant))
        return Applied(state, (LogLine("Every dice bank is full again."),))


@dataclass(frozen=True)
class SetInitiativeDice(Operation):
    """How many mental dice the character risks on initiative (kept for the next rolls; 0 = Composure only)."""

    kind = "clovek_initiative_dice"
    combatant_id: str
    dice: int

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        size = bank(combatant, MENTAL).size
        if not 0 <= self.dice <= size:
            raise OperationError(_("{name} can risk 0 to {size} mental dice on initiative.").format(
                name=combatant.name, size=size))
        line = LogLine("{name} will risk {count} mental die on initiative.",
                       {"name": combatant.name, "count": self.dice},
                       plural="{name} will risk {count} mental dice on initiative.", count=self.dice)
        return Applied(encounter.with_combatant(with_extra(combatant, INITIATIVE_DICE, self.dice)), (line,))


@dataclass(frozen=True)
class SetCapacityName(Operation):
    """Name this character's social or mental capacity attribute (blank: the encounter's or the default name)."""

    kind = "clovek_capacity_name"
    combatant_id: str
    bank: str
    name: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if self.bank not in (SOCIAL, MENTAL):
            raise OperationError(_("Only the social and mental capacity attributes are named per character."))
        if len(self.name) > 60:
            raise OperationError(_("A capacity attribute's name has at most 60 characters."))
        names = extra_map(combatant, CAPACITY_NAMES)
        names = with_item(names, self.bank, self.name.strip()) if self.name.strip() else without_item(names, self.bank)
        line = LogLine("{name}: {bank} capacity attribute renamed.", {"name": combatant.name,
                                                                       "bank": BANK_WORDS[self.bank]},
                       translate=("bank",))
        return Applied(encounter.with_combatant(with_extra(combatant, CAPACITY_NAMES, names)), (line,))

