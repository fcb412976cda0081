"""Soubojový systém (system id ``souboj``): the public functions tests and charts rely on, and the operations."""

from rules.systems.souboj.attack import FinishOff, SoubojAttack
from rules.systems.souboj.combat import critical_multiplier, damage
from rules.systems.souboj.odds import attack_odds
from rules.systems.souboj.ops import (
    ActAfter,
    AddInitiativeEffect,
    Declare,
    DropReaction,
    GrantAction,
    HoldReaction,
    JudgeLastAction,
    MarkDead,
    SetDyingCountdown,
    TimePasses,
    UseReaction,
)
from rules.systems.souboj.system import SoubojSystem

SYSTEM = SoubojSystem()

__all__ = [
    "SYSTEM",
    "ActAfter",
    "AddInitiativeEffect",
    "Declare",
    "DropReaction",
    "FinishOff",
    "GrantAction",
    "HoldReaction",
    "JudgeLastAction",
    "MarkDead",
    "SetDyingCountdown",
    "SoubojAttack",
    "TimePasses",
    "UseReaction",
    "attack_odds",
    "critical_multiplier",
    "damage",
]
