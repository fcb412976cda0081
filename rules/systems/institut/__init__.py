"""Institute (system id ``institut``): the public functions tests and charts rely on."""

from rules.systems.institut.checks import SkillCheck
from rules.systems.institut.combat import FireMode, Shot, attack_pool, damage_pool, grenade_throw, hits
from rules.systems.institut.crossing import CrossSuppression, SuppressionRoll, dodges_needed
from rules.systems.institut.odds import (
    attack_outcome_distribution,
    hit_probability,
    pool_total,
    success_probability,
    throw_distribution,
    wound_class_distribution,
)
from rules.systems.institut.ops import (
    Blast,
    BlastRoll,
    DeclareActions,
    HoldAction,
    InstitutAttack,
    ResolveHeld,
    SetInstitutFlag,
    SetPyramid,
    SkipRound,
    SuppressionDodge,
    SuppressionFire,
    ThrowGrenade,
)
from rules.systems.institut.pyramid import CLASSES, Pyramid
from rules.systems.institut.rounds import movement, sprint
from rules.systems.institut.system import InstitutSystem
from rules.systems.institut.tables import load_tables

SYSTEM = InstitutSystem()


def wound_class(damage_total: int) -> str | None:
    """The wound class a damage total enters on the default pyramid: "light" … "mortal", None below 5."""
    return load_tables().pyramid.classify(damage_total)


__all__ = [
    "CLASSES",
    "SYSTEM",
    "Blast",
    "BlastRoll",
    "CrossSuppression",
    "DeclareActions",
    "FireMode",
    "HoldAction",
    "InstitutAttack",
    "Pyramid",
    "ResolveHeld",
    "SetInstitutFlag",
    "SetPyramid",
    "Shot",
    "SkillCheck",
    "SkipRound",
    "SuppressionDodge",
    "SuppressionFire",
    "SuppressionRoll",
    "ThrowGrenade",
    "attack_outcome_distribution",
    "attack_pool",
    "damage_pool",
    "dodges_needed",
    "grenade_throw",
    "hit_probability",
    "hits",
    "movement",
    "pool_total",
    "sprint",
    "success_probability",
    "throw_distribution",
    "wound_class",
    "wound_class_distribution",
]
