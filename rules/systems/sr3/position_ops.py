"""SR3 change of position as operations: drop prone (a free action), stand up (a simple action; wounded, only on a
Willpower test against 2 + the wound modifier). sr3.md, Actions per phase; the state is :mod:`.position`.

Before initiative, or between turns, no phase is under way: the change takes no action (as a reload then:
**Decision**, the rules time actions only within a combat turn).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.encounter import Combatant, Encounter
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.sr3.dice import count_sr3_successes, rule_of_one
from rules.systems.sr3.ops import Chains, check_chains
from rules.systems.sr3.position import is_prone, stand_up_dice, stand_up_tn, with_prone, wound_tn
from rules.systems.sr3.system import FREE, SIMPLE
from rules.text import _, ngettext


def _spend(system: RuleSystem, combatant: Combatant, kind: str, encounter: Encounter, rule: str) -> Combatant:
    """The action the change takes (none while no phase is under way); a refusal says the rule."""
    if encounter.clock.current is None:
        return combatant
    try:
        return system.spend_action(combatant, kind, encounter)
    except OperationError as refusal:
        raise OperationError(f"{refusal} {rule}") from None


@dataclass(frozen=True)
class Sr3DropProne(Operation):
    """The character drops prone: a free action."""

    kind = "sr3_drop_prone"
    combatant_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if is_prone(combatant):
            raise OperationError(_("{name} is already prone.").format(name=combatant.name))
        acted = _spend(system, combatant, FREE, encounter, _("Dropping prone takes a free action."))
        line = LogLine("{name} drops prone.", {"name": combatant.name})
        return Applied(encounter.with_combatant(with_prone(acted, True)), (line,))


@dataclass(frozen=True)
class Sr3StandUp(Operation):
    """The character stands up: a simple action; wounded, only with a success of Willpower against ``tn`` (2 + the
    wound modifier), rolled as ``faces``. Unwounded, no test (``tn`` 0, no faces). A failed test still takes the
    action, and the character stays prone."""

    kind = "sr3_stand_up"
    combatant_id: str
    tn: int = 0
    faces: Chains = ()

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if not is_prone(combatant):
            raise OperationError(_("{name} is not prone.").format(name=combatant.name))
        self._check_test(combatant)
        acted = _spend(system, combatant, SIMPLE, encounter, _("Standing up takes a simple action."))
        if not self.tn:
            line = LogLine("{name} stands up.", {"name": combatant.name})
            return Applied(encounter.with_combatant(with_prone(acted, False)), (line,))
        count = 0 if rule_of_one(self.faces) else count_sr3_successes(self.faces, self.tn)
        if not count:
            line = LogLine("{name} fails to stand up (no success on Willpower at TN {tn}) and stays prone.",
                           {"name": combatant.name, "tn": self.tn})
            return Applied(encounter.with_combatant(acted), (line,))
        line = LogLine("{name} stands up: {count} success on Willpower at TN {tn}.",
                       {"name": combatant.name, "count": count, "tn": self.tn},
                       plural="{name} stands up: {count} successes on Willpower at TN {tn}.", count=count)
        return Applied(encounter.with_combatant(with_prone(acted, False)), (line,))

    def _check_test(self, combatant: Combatant) -> None:
        """The test the rules ask for now, and no other."""
        tn = stand_up_tn(combatant)
        if tn is None:
            if self.tn or self.faces:
                raise OperationError(_("{name} is unwounded and stands up without a test.").format(
                    name=combatant.name))
            return
        if self.tn != tn:
            raise OperationError(_("{name} is wounded and stands up only on Willpower against TN {tn} (2 + wound "
                                   "modifier {wounds}).").format(name=combatant.name, tn=tn,
                                                                 wounds=wound_tn(combatant)))
        dice = stand_up_dice(combatant)
        if len(self.faces) != dice:
            raise OperationError(ngettext("{name} rolls Willpower, {count} die, to stand up, not {typed}.",
                                          "{name} rolls Willpower, {count} dice, to stand up, not {typed}.",
                                          dice).format(name=combatant.name, count=dice, typed=len(self.faces)))
        check_chains(self.faces)
