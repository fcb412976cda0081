"""The toy game with weapons, for the generic weapons editor's tests: every kind of weapon field (text damage,
a choice, a yes/no, magazine and rounds), with a meaning the game checks (damage is a number or dice)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Final

from rules.encounter import Weapon
from rules.errors import RulesError
from rules.systems.base import OptionKind, OptionSpec, RuleSystem
from rules.systems.sr3.system import Sr3System
from rules.weapons import MAGAZINE, ROUNDS, text_field
from tests.toy_game import registered

WEAPON_FIELDS: Final[tuple[OptionSpec, ...]] = (
    text_field("damage", "Damage", "1", help="A number or dice, e.g. 2 or 1d6."),
    OptionSpec("reach", "Reach", OptionKind.CHOICE, "melee", choices=(("melee", "Melee"), ("ranged", "Ranged"))),
    OptionSpec("two_handed", "Two-handed", OptionKind.BOOL, False),
    OptionSpec(MAGAZINE, "Magazine", OptionKind.INT, 0, minimum=0, maximum=100),
    OptionSpec(ROUNDS, "Rounds", OptionKind.INT, 0, minimum=0, maximum=100),
)
_DAMAGE = re.compile(r"[0-9]{1,2}|[0-9]d[0-9]{1,2}", re.IGNORECASE)


def check_weapon(weapon: Weapon) -> Weapon:
    """The toy's meaning of its weapons: damage is a number or dice (stored in lower case)."""
    damage = str(weapon.value("damage", ""))
    if not _DAMAGE.fullmatch(damage):
        raise RulesError(f"{weapon.name}: damage must be a number or dice, not “{damage}”.")
    return weapon.with_value("damage", damage.lower())


def describe_weapon(weapon: Weapon) -> str:
    """Name and damage (the rounds left are shown beside it by whoever shows it)."""
    return f"{weapon.name} ({weapon.value('damage')})"


class ArmedToy(Sr3System):
    """A game whose weapons have the fields above, for the editor alone (a shipped game underneath: importing the
    toy game's rules here would register its operations while the tests are collected)."""

    def weapon_fields(self) -> Sequence[OptionSpec]:
        return WEAPON_FIELDS

    def check_weapon(self, weapon: Weapon) -> Weapon:
        return check_weapon(weapon)

    def describe_weapon(self, weapon: Weapon) -> str:
        return describe_weapon(weapon)


PISTOL: Final[Weapon] = Weapon("Pistol", {"damage": "3", "reach": "ranged", "two_handed": False, MAGAZINE: 10,
                                          ROUNDS: 7})
CLUB: Final[Weapon] = Weapon("Club", {"damage": "1d6", "reach": "melee", "two_handed": True, MAGAZINE: 0, ROUNDS: 0})


@contextmanager
def armed_toy_game() -> Iterator[RuleSystem]:
    """The toy game registered (tests/toy_game) with the weapons above, until the block ends."""
    with registered() as system:
        patched = {"weapon_fields": lambda: WEAPON_FIELDS, "check_weapon": check_weapon,
                   "describe_weapon": describe_weapon}
        for name, function in patched.items():
            setattr(system, name, function)
        try:
            yield system
        finally:
            for name in patched:
                delattr(system, name)
