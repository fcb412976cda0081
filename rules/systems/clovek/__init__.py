"""Člověk (system id ``clovek``): three dice banks of d10, one action type per turn, power and long actions.

The public functions tests and charts rely on: :func:`success_number` and :func:`successes_distribution`.
"""

from rules.systems.clovek.check import ClovekCheck, PowerRoll, SkillRoll
from rules.systems.clovek.long_actions import EndLongAction, PauseLongAction, ResumeLongAction, StartLongAction
from rules.systems.clovek.odds import successes_distribution
from rules.systems.clovek.ops import ClovekBurn, ClovekSpend, RefillBanks, SetCapacityName, SetInitiativeDice
from rules.systems.clovek.order import SetTurnPlace
from rules.systems.clovek.rolls import success_number
from rules.systems.clovek.system import ClovekSystem

SYSTEM = ClovekSystem()

__all__ = [
    "SYSTEM",
    "ClovekBurn",
    "ClovekCheck",
    "ClovekSpend",
    "EndLongAction",
    "PauseLongAction",
    "PowerRoll",
    "RefillBanks",
    "ResumeLongAction",
    "SetCapacityName",
    "SetInitiativeDice",
    "SetTurnPlace",
    "SkillRoll",
    "StartLongAction",
    "success_number",
    "successes_distribution",
]
