"""Shadowrun, Third Edition (system id ``sr3``): the public functions tests and charts rely on."""

from rules.systems.sr3.aim import Sr3Aim, Sr3LoseAim
from rules.systems.sr3.damage import damage_code
from rules.systems.sr3.initiative import initiative_passes
from rules.systems.sr3.karma import BuyKarmaSuccesses, RefreshKarma
from rules.systems.sr3.levels import stage
from rules.systems.sr3.melee_ops import Sr3Melee
from rules.systems.sr3.monitor import wound_modifiers
from rules.systems.sr3.odds import damage_distribution, success_probability, successes_distribution
from rules.systems.sr3.ops import Sr3Attack, Sr3QuickDrawFailed, grenade_timer
from rules.systems.sr3.resistance import Sr3ResistHit
from rules.systems.sr3.surprise_test import SurpriseTest
from rules.systems.sr3.system import Sr3System

SYSTEM = Sr3System()

__all__ = [
    "SYSTEM",
    "BuyKarmaSuccesses",
    "RefreshKarma",
    "Sr3Aim",
    "Sr3Attack",
    "Sr3LoseAim",
    "Sr3Melee",
    "Sr3QuickDrawFailed",
    "Sr3ResistHit",
    "SurpriseTest",
    "damage_code",
    "damage_distribution",
    "grenade_timer",
    "initiative_passes",
    "stage",
    "success_probability",
    "successes_distribution",
    "wound_modifiers",
]
