"""Walka (system id ``walka``): the public functions tests and charts rely on, and the game's operations."""

from rules.systems.walka.odds import attack_win_probability, hp_loss_distribution
from rules.systems.walka.ops import (
    DecideGmTie,
    SetDying,
    SetKnockedDown,
    SetSeating,
    SpendChance,
    WalkaAction,
    WalkaAttack,
)
from rules.systems.walka.seating import GM_SEAT
from rules.systems.walka.system import WalkaSystem

SYSTEM = WalkaSystem()

__all__ = [
    "GM_SEAT",
    "SYSTEM",
    "DecideGmTie",
    "SetDying",
    "SetKnockedDown",
    "SetSeating",
    "SpendChance",
    "WalkaAction",
    "WalkaAttack",
    "WalkaSystem",
    "attack_win_probability",
    "hp_loss_distribution",
]
