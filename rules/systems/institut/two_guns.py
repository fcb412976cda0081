"""Two guns at once ("по-македонски") with the second gun a weapon of its own: which of the attacker's weapons may
be the second gun, whether the pair is identical, and the rounds the second gun fires from its own magazine.

institut.md: "only identical weapons that can be held in one hand (pistols, at most SMGs; not an AK-47).
Identical: two shots at one target from one attack roll at an extra −1, then two damage rolls. Different guns: one
bullet always misses. Bursts are allowed but useless. Decision: different guns: one damage roll, the −1 still
applies (the same single attack roll)." The one attack roll takes the first gun's own modifier to hit, and the
one damage roll of different guns is the first gun's (the GM picks which gun is the first).
"""

from __future__ import annotations

from typing import Final

from rules.encounter import Combatant, JsonValue, Weapon
from rules.errors import RulesError
from rules.systems.institut.arms import MODE, ONE_HANDED, weapon_burst, weapon_kind
from rules.systems.institut.tables import WeaponKind
from rules.text import _
from rules.weapons import ROUNDS, uses_rounds

#: What two guns may differ in and still be "одинаковые" (identical): their names, the rounds left in each and how
#: each is usually fired.
_NOT_THE_GUN: Final[frozenset[str]] = frozenset({ROUNDS, MODE})


def second_gun_choices(attacker: Combatant, first: str) -> tuple[Weapon, ...]:
    """The attacker's firearms other than ``first`` (the first gun's name; "" when typed in): what the GM may pick
    as the second gun (one that is not one-handed is offered, and refused saying why)."""
    return tuple(weapon for weapon in attacker.weapons
                 if weapon_kind(weapon) is WeaponKind.FIREARM and weapon.name != first)


def identical(first: Weapon, second: Weapon) -> bool:
    """Whether two guns look the same weapon: every value alike but the rounds left and the usual firing (the
    attack form's suggestion; a Makarov and a TT roll alike yet are different guns, which the GM says)."""
    return _the_gun(first) == _the_gun(second)


def _the_gun(weapon: Weapon) -> dict[str, JsonValue]:
    return {key: value for key, value in weapon.values.items() if key not in _NOT_THE_GUN}


def check_pair(first: Weapon | None, second: Weapon) -> None:
    """Refuse a second gun the rules do not allow, quoting them: not a firearm held in one hand (the first gun too,
    when it is a saved weapon), the first gun itself, or empty."""
    for gun in (first, second):
        if gun is not None and (weapon_kind(gun) is not WeaponKind.FIREARM or gun.value(ONE_HANDED) is not True):
            # "только если вы можете держать их в одной руке — АК-47 точно не соответствует этому условию"
            raise RulesError(_("{weapon} is not held in one hand: two guns at once only “if you can hold them in "
                               "one hand” (pistols, at most submachine guns; not an AK-47).").format(weapon=gun.name))
    if first is not None and first.name == second.name:
        raise RulesError(_("The second gun must be another weapon than the first."))
    if uses_rounds(second) and second.number(ROUNDS) <= 0:
        raise RulesError(_("{weapon} is empty: change its magazine first (changing a magazine is an action).")
                         .format(weapon=second.name))


def second_gun_rounds(second: Weapon, bursts: bool) -> int:
    """Rounds the second gun fires: one, or its short burst when both guns fire bursts; RulesError when it fires
    no bursts."""
    if not bursts:
        return 1
    burst = weapon_burst(second)
    if burst is None:
        raise RulesError(_("{weapon} fires no bursts: fire single shots from both guns.").format(weapon=second.name))
    return burst.fired


def carried_pair(attacker: Combatant, first: str, second: str) -> tuple[Weapon | None, Weapon]:
    """The attacker's first gun (None when typed in) and second gun by name; RulesError when it carries no such
    second gun."""
    found = attacker.weapon(second)
    if found is None:
        raise RulesError(_("{name} carries no weapon called “{weapon}”.").format(name=attacker.name, weapon=second))
    return (attacker.weapon(first) if first else None), found

