"""SR3 melee as a GM-adjustable option set: opposed tests, reach, ties, counter-damage, unarmed damage.

The seed stops before melee, so every choice is the GM's rather than a guess in code: reach as bonus or
penalty and what a tie does are the encounter options ``reach_mode`` and ``melee_tie``; whether a winning
defender hits back, unarmed damage and the numbers are in the data file. Pass the encounter's tables
(:func:`rules.systems.sr3.system.tables`, which puts the options in) to honour them; without tables the
defaults apply.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from rules.systems.sr3.damage import DamageCode
from rules.systems.sr3.levels import stage
from rules.systems.sr3.ranged import ModifierLine, TargetNumber, line, require, target_number
from rules.systems.sr3.tables import MeleeStaging, ReachRule, Sr3Tables, TieRule, load_tables
from rules.text import N_, _

#: Why a melee called shot is refused: the encounter's option (sr3.md's Decision, "option: not").
CALLED_MELEE_REFUSED = N_("This encounter allows called shots with firearms and bows only, not in melee (option "
                          "\"Called shots with throws and in melee\").")


class Role(StrEnum):
    """The two sides of one melee exchange."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True)
class MeleeFighter:
    """One side's TN inputs: reach and the modifiers the GM reads off the situation."""

    reach: int = 0
    wound_modifier: int = 0
    visibility_modifier: int = 0
    position_modifier: int = 0
    gm_modifier: int = 0
    #: A called shot: "+4, … the effects as for firearms" (sr3.md's Decision: throws and melee may be called too).
    called_shot: bool = False


def reach_modifiers(attacker_reach: int, defender_reach: int, tables: Sr3Tables | None = None) -> tuple[int, int]:
    """TN modifiers (attacker, defender) from the reach difference, per the GM's reach rule."""
    rules = (tables or load_tables()).melee
    difference = (attacker_reach - defender_reach) * rules.reach_per_point
    if rules.reach_rule is ReachRule.BONUS:
        return (-difference, 0) if difference > 0 else (0, difference)
    return (0, difference) if difference > 0 else (-difference, 0)


def _fighter_tn(fighter: MeleeFighter, reach: int, tables: Sr3Tables) -> TargetNumber:
    optional = [
        ("reach", reach),
        ("wounds", fighter.wound_modifier),
        ("visibility", fighter.visibility_modifier),
        ("position", fighter.position_modifier),
        ("gm", fighter.gm_modifier),
    ]
    lines: list[ModifierLine] = [line("melee", tables.melee.base_tn)]
    lines += [line(key, value) for key, value in optional if value]
    if fighter.called_shot:
        require(tables.called_shot_throws_and_melee, _(CALLED_MELEE_REFUSED))
        lines.append(line("called_shot", tables.ranged.called_shot))
    return target_number(lines, tables.minimum_tn)


def melee_tns(
    attacker: MeleeFighter, defender: MeleeFighter, tables: Sr3Tables | None = None
) -> tuple[TargetNumber, TargetNumber]:
    """Target numbers of the attacker's and the defender's melee tests, itemised."""
    tables = tables or load_tables()
    attacker_reach, defender_reach = reach_modifiers(attacker.reach, defender.reach, tables)
    return _fighter_tn(attacker, attacker_reach, tables), _fighter_tn(defender, defender_reach, tables)


@dataclass(frozen=True)
class MeleeOutcome:
    """Who won, by how much, who is hit and with what (level already staged by the net successes).

    The one hit then resists ``damage`` as usual (Body vs Power − impact armor).
    """

    winner: Role | None
    net: int
    hit: Role | None
    damage: DamageCode | None


def _strike(winner: Role, net: int, code: DamageCode) -> MeleeOutcome:
    require(not code.strength_based, _("Resolve a Strength-based damage code for the wielder first."))
    staged = stage(code.level, net) or code.level  # net >= 0 here, so staging only raises the level
    hit = Role.DEFENDER if winner is Role.ATTACKER else Role.ATTACKER
    return MeleeOutcome(winner, net, hit, DamageCode(code.power, staged, stun=code.stun))


def resolve_melee(
    attacker_successes: int,
    defender_successes: int,
    attacker_damage: DamageCode,
    defender_damage: DamageCode | None = None,
    *,
    full_defence: bool = False,
    tables: Sr3Tables | None = None,
) -> MeleeOutcome:
    """Compare the two melee tests: the side with more successes may hurt the other (see the options)."""
    rules = (tables or load_tables()).melee
    require(min(attacker_successes, defender_successes) >= 0, _("Successes cannot be negative."))
    net = attacker_successes - defender_successes
    if net > 0:
        return _strike(Role.ATTACKER, net, attacker_damage)
    if net < 0:
        if full_defence or not rules.defender_counterattacks or defender_damage is None:
            return MeleeOutcome(Role.DEFENDER, -net, None, None)
        return _strike(Role.DEFENDER, -net, defender_damage)
    # A tie with no successes at all is a miss under either tie rule.
    if rules.tie_rule is TieRule.ATTACKER and attacker_successes > 0:
        return replace(_strike(Role.ATTACKER, 0, attacker_damage), winner=None)
    return MeleeOutcome(None, 0, None, None)


def hit_level(base_level: str, net: int, resistance: int, staging: MeleeStaging = MeleeStaging.ONCE) -> str | None:
    """The level a melee hit lands at (None: staged away), from the weapon's level, the winner's net successes
    and the hit one's resistance successes (sr3.md Decision: compared once, 2 per level, as in ranged combat; or
    staged twice: up by the net successes, then down by the resistance successes)."""
    require(min(net, resistance) >= 0, _("Successes cannot be negative."))
    if staging is MeleeStaging.ONCE:
        return stage(base_level, net - resistance)
    raised = stage(base_level, net) or base_level  # net >= 0: staging up never drops the level
    return stage(raised, -resistance)


def unarmed_damage(strength: int, tables: Sr3Tables | None = None) -> DamageCode:
    """Unarmed damage: (Strength)M stun by default; level and stun are GM options."""
    require(strength >= 0, _("Strength cannot be negative."))
    rules = (tables or load_tables()).melee
    return DamageCode(strength, rules.unarmed_level, stun=rules.unarmed_stun)
