"""SR3: a damage code typed in the Damage dialog is resisted by each target on its own.

The digest ("Grenades": everyone in the blast resists separately, with their own impact armor; "Ranged combat",
step 5: modified Body + pool dice left against Power − armor, never below 2) makes a grenade's ``10S`` a
different wound on every target. :class:`Sr3Resistance` is what the dialog shows for one target before the
roll (the dice, the TN, the odds of each level); :class:`Sr3ResistHit` records the faces and marks what they
come to: every 2 successes stage the level one down, below Light nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice import Chains, DiceExpression
from rules.encounter import Combatant, Encounter
from rules.errors import OperationError
from rules.harm import OwnRoll
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.sr3.damage import (
    DAMAGE_CODE_FORMAT,
    DamageCode,
    describe_damage_code,
    format_damage_code,
    resistance_tn,
)
from rules.systems.sr3.dice import TargetNumberTest, count_sr3_successes, sr3_chain_problem
from rules.systems.sr3.levels import LEVEL_LABELS, LEVELS, check_level, stage
from rules.systems.sr3.monitor import PHYSICAL, STUN
from rules.systems.sr3.odds import MIN_TN, successes_distribution
from rules.systems.sr3.ops import check_chains, land_damage, successes_line, take_from_pool
from rules.systems.sr3.system import COMBAT_POOL, resisting_body, tables
from rules.systems.sr3.tables import WeaponKind
from rules.systems.sr3.typed_harm import TypedCode
from rules.text import _, ngettext

#: A resistance TN past this is a typing slip, not a hit (the highest SR3 Power with ammunition is far below).
MAX_RESIST_TN = 100


def resistance(code: TypedCode, target: Combatant, encounter: Encounter) -> Sr3Resistance:
    """What ``target`` rolls against ``code``: Body dice, its combat pool left, TN Power − impact armor."""
    body, armor = resisting_body(target), target.attribute("impact")
    # A blast meets impact armor (the tables' armor_vs), never below the minimum TN: the attack's own rule.
    tn = resistance_tn(code.power, target.attribute("ballistic"), armor, WeaponKind.BLAST, tables=tables(encounter))
    shown = describe_damage_code(DamageCode(code.power, code.level, stun=code.spec.key == STUN))
    label = ngettext("Body {body} die against TN {tn} ({code} − impact armor {armor})",
                     "Body {body} dice against TN {tn} ({code} − impact armor {armor})", body).format(
        body=body, tn=tn, code=shown, armor=armor)
    pool = target.pools.get(COMBAT_POOL)
    return Sr3Resistance(target.id, label, _("Combat pool") if pool is not None else "",
                         pool.remaining if pool is not None else 0, power=code.power, level=code.level,
                         track=code.spec.key, tn=tn, body=body)


@dataclass(frozen=True)
class Sr3Resistance(OwnRoll):
    """One target's resistance test against a typed damage code, before the dice."""

    power: int = 0
    level: str = "M"
    track: str = PHYSICAL
    tn: int = MIN_TN
    body: int = 0

    def expression(self, pool_dice: int) -> DiceExpression | None:
        dice = self.body + pool_dice
        return TargetNumberTest(dice, self.tn) if dice > 0 else None

    def odds(self, pool_dice: int) -> Sequence[tuple[str, float]]:
        by_level: dict[str | None, float] = {}
        for successes, chance in enumerate(successes_distribution(self.body + pool_dice, self.tn)):
            level = stage(self.level, -successes)
            by_level[level] = by_level.get(level, 0.0) + chance
        shown = [(_(LEVEL_LABELS[level]), by_level[level]) for level in reversed(LEVELS) if by_level.get(level)]
        if by_level.get(None):
            shown.append((_("No damage"), by_level[None]))
        return shown

    def operation(self, faces: Chains, pool_dice: int) -> Operation:
        return Sr3ResistHit(self.combatant_id, self.power, self.level, self.tn, faces, pool_dice, self.track)


@dataclass(frozen=True)
class Sr3ResistHit(Operation):
    """A target resists a damage code with the faces recorded: pool dice spent, the staged level marked."""

    kind = "sr3_resist_hit"
    target: str
    power: int
    level: str
    resist_tn: int
    resist_faces: Chains
    resist_pool: int = 0
    track: str = PHYSICAL

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        require_combatant(encounter, self.target)
        self._validate()
        state = take_from_pool(encounter, encounter.combatant(self.target), self.resist_pool)
        target = state.combatant(self.target)
        successes = count_sr3_successes(self.resist_faces, self.resist_tn)
        code = format_damage_code(DamageCode(self.power, self.level, stun=self.track == STUN))
        log = [LogLine("{name} resists {code}.", {"name": target.name, "code": code},
                       shown_as={"code": DAMAGE_CODE_FORMAT})]
        if self.resist_pool:
            log.append(LogLine("{name} uses {count} combat pool die.", {"name": target.name,
                                                                         "count": self.resist_pool},
                               plural="{name} uses {count} combat pool dice.", count=self.resist_pool))
        log.append(successes_line("{name} resists: {count} success at TN {tn}.",
                                  "{name} resists: {count} successes at TN {tn}.", target.name, successes,
                                  self.resist_tn))
        return land_damage(state, system, target, self.track, stage(self.level, -successes), log)

    def _validate(self) -> None:
        check_level(self.level)
        if self.track not in (PHYSICAL, STUN):
            raise OperationError(_("Damage goes on the physical or the stun track."))
        if not MIN_TN <= self.resist_tn <= MAX_RESIST_TN or self.power < 0:
            raise OperationError(_("A resistance target number is {low} to {high}.").format(low=MIN_TN,
                                                                                           high=MAX_RESIST_TN))
        check_chains(self.resist_faces)
        problems = (sr3_chain_problem(chain, self.resist_tn) for chain in self.resist_faces)
        if (problem := next((problem for problem in problems if problem), None)) is not None:
            raise OperationError(problem)
        if not 0 <= self.resist_pool <= len(self.resist_faces):
            raise OperationError(_("More pool dice than dice rolled."))

