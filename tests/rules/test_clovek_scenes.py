"""Člověk seed characters and helpers to drive a fight (imported by the other Člověk tests), and their checks."""

from __future__ import annotations

from collections.abc import Mapping

from rules.combatants import AddCombatant
from rules.encounter import Encounter, Side, frozen_map
from rules.history import History
from rules.systems.clovek.banks import MENTAL, PHYSICAL, SOCIAL
from rules.turns import RollInitiative

#: The seed's Beatrice: Agility 2, Charm 3, Intelligence 4, Composure 2, Constitution 1 (she needs the shield in
#: both hands), mental capacity 4 for her studies.
BEATRICE: dict[str, int] = {"agility": 2, "charm": 3, "intelligence": 4, "composure": 2, "constitution": 1,
                            "social_capacity": 3, "mental_capacity": 4}
#: The seed's Cesare: a fencer with Constitution 4.
CESARE: dict[str, int] = {"agility": 3, "charm": 3, "intelligence": 2, "composure": 3, "constitution": 4,
                          "social_capacity": 2, "mental_capacity": 2}
ADRIANA: dict[str, int] = {"agility": 3, "charm": 4, "intelligence": 3, "composure": 4, "constitution": 2,
                           "social_capacity": 4, "mental_capacity": 3}


def seed_fight() -> History:
    """Beatrice (b), Cesare (c) and Adriana (a), initiative not rolled yet."""
    history = History(Encounter("clovek", "Seed"))
    history.do(AddCombatant("b", "Beatrice", Side.PLAYER, frozen_map(BEATRICE)))
    history.do(AddCombatant("c", "Cesare", Side.PLAYER, frozen_map(CESARE)))
    history.do(AddCombatant("a", "Adriana", Side.OPPONENT, frozen_map(ADRIANA)))
    return history


def roll(history: History, faces: Mapping[str, tuple[int, ...]],
         tiebreaks: Mapping[str, tuple[int, ...]] | None = None) -> None:
    """Roll initiative with these faces (each character's chosen mental dice)."""
    history.do(RollInitiative(frozen_map(faces), frozen_map(tiebreaks or {})))


def left(history: History, combatant_id: str) -> tuple[int, int, int]:
    """Dice left in the physical, social and mental banks."""
    pools = history.state.combatant(combatant_id).pools
    return pools[PHYSICAL].remaining, pools[SOCIAL].remaining, pools[MENTAL].remaining


def test_seed_characters_get_banks_and_six_tracks() -> None:
    history = seed_fight()
    beatrice = history.state.combatant("b")
    assert {key: (pool.size, pool.spent) for key, pool in beatrice.pools.items()} == {
        PHYSICAL: (4, 0), SOCIAL: (6, 0), MENTAL: (8, 0)}
    assert set(beatrice.damage) == {f"{bank}_{kind}" for bank in (PHYSICAL, SOCIAL, MENTAL)
                                    for kind in ("stun", "wounds")}
    assert left(history, "c") == (6, 6, 4)
