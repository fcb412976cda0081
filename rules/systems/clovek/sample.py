"""The Člověk sample fight: "Pistols in Saint Roch" (see app.samples, which writes it into resources/samples)."""

from __future__ import annotations

from rules.combatants import AddCombatant
from rules.encounter import JsonValue, Side, Weapon, frozen_map
from rules.history import Batch, History, new_history
from rules.systems.clovek import (
    ClovekCheck,
    ClovekSpend,
    PowerRoll,
    RefillBanks,
    SetCapacityName,
    SetInitiativeDice,
    SkillRoll,
    StartLongAction,
)
from rules.systems.clovek.long_actions import LongKind
from rules.systems.clovek.rolls import PowerSource
from rules.turns import NextTurn, RollInitiative


def _weapon(name: str, **values: JsonValue) -> Weapon:
    return Weapon(name, frozen_map(values))


# The seed's own numbers: the heavy pistol's power value 3, the heraldic shield's +4 power in both hands. The rest
# (skills the notes give, dice habitually committed, the halberd's bonus, six rounds a pistol) is the GM's data.
_PISTOL: dict[str, JsonValue] = {"kind": "equipment", "value": 3, "magazine": 6, "rounds": 6}
_WEAPONS: dict[str, tuple[Weapon, ...]] = {
    "Beatrice": (_weapon("Heraldic shield", skill_name="Shield", skill=1, dice=2, power_bonus=4),),
    "Cesare": (_weapon("Rapier", skill_name="Fencing", skill=3, dice=3),
               _weapon("Heavy pistol", skill_name="Pistols", skill=2, dice=3, **_PISTOL)),
    "Adriana": (_weapon("Heavy pistol", skill_name="Pistols", skill=3, dice=3, **_PISTOL),),
    "Count's guard 1": (_weapon("Halberd", skill_name="Polearms", skill=2, dice=2, power_bonus=2),),
    "Count's guard 2": (_weapon("Halberd", skill_name="Polearms", skill=2, dice=2, power_bonus=2),),
}

_PARTY = (
    ("Beatrice", {"agility": 2, "charm": 3, "intelligence": 4, "constitution": 1, "social_capacity": 3,
                  "mental_capacity": 4, "composure": 2}, "Heraldic shield (+2 defence, +4 power in both hands)"),
    ("Cesare", {"agility": 3, "charm": 3, "intelligence": 2, "constitution": 4, "social_capacity": 2,
                "mental_capacity": 2, "composure": 3}, "Rapier; Fencing 3"),
    ("Dante", {"agility": 1, "charm": 3, "intelligence": 5, "constitution": 2, "social_capacity": 3,
               "mental_capacity": 5, "composure": 4}, "Scholar; Cryptology 4 (knowledge)"),
)
_FOES = (
    ("Adriana", {"agility": 3, "charm": 4, "intelligence": 3, "constitution": 2, "social_capacity": 4,
                 "mental_capacity": 3, "composure": 4}, "Heavy pistol (power 3); Pistols 3"),
    ("Count's guard 1", {"agility": 2, "charm": 1, "intelligence": 1, "constitution": 3, "composure": 2}, "Halberd"),
    ("Count's guard 2", {"agility": 2, "charm": 1, "intelligence": 1, "constitution": 3, "composure": 2}, "Halberd"),
)


def sample() -> History:
    """"Pistols in Saint Roch": Beatrice, Cesare and Dante against Adriana and two guards, round 1 under way."""
    history = new_history("clovek", "Pistols in Saint Roch")
    party = [AddCombatant(f"c{n}", name, Side.PLAYER, frozen_map(stats), notes=notes, weapons=_WEAPONS.get(name, ()))
             for n, (name, stats, notes) in enumerate(_PARTY, start=1)]
    foes = [AddCombatant(f"c{n}", name, Side.OPPONENT, frozen_map(stats), group="Guards" if "guard" in name else None,
                         notes=notes, weapons=_WEAPONS[name]) for n, (name, stats, notes) in enumerate(_FOES, start=4)]
    history.do(Batch(tuple(party), "Party"))
    history.do(Batch(tuple(foes), "Adriana and the guards"))
    history.do(SetCapacityName("c3", "mental", "Erudition"))
    history.do(StartLongAction("c3", "long1", "Decode the Order's letter", "mental", LongKind.INTERRUPTIBLE, 12))
    # Earlier tonight: Dante's first hour with the letter (Cryptology 4: 8, 6 = 2 successes; power 3 + 2 = 5).
    history.do(ClovekCheck("c3", SkillRoll("mental", ((8,), (6,)), 4, skill_name="Cryptology"),
                           power=PowerRoll(PowerSource.ATTRIBUTE, 5, ((7,), (5,)), name="Erudition"),
                           long_action="long1"))
    history.do(RefillBanks("c3"))  # that was another scene: the banks are full for the fight
    for who, dice in (("c1", 3), ("c2", 1), ("c4", 2)):
        history.do(SetInitiativeDice(who, dice))
    rolls = {"c1": (4, 9, 2), "c2": (6,), "c3": (), "c4": (5, 3), "c5": (), "c6": ()}
    history.do(RollInitiative(frozen_map(rolls), frozen_map({cid: (n,) for n, cid in enumerate(rolls, 1)})))
    # Beatrice (2 + 9 = 11) pleads with Adriana: a social action with 3 dice.
    history.do(ClovekSpend("c1", "social", 3, "action", purpose="plead with Adriana"))
    history.do(NextTurn())
    # Adriana (4 + 5 = 9) fires at Cesare, who dodges with 2 physical dice: 3 − 1 = 2 successes; 6 + 1 = 7 wounds.
    history.do(ClovekCheck("c4", SkillRoll("physical", ((8,), (10, 4), (7,)), 3, skill_name="Pistols"),
                           target="c2", defence=SkillRoll("physical", ((9,), (3,)), 2, skill_name="Dodge"),
                           power=PowerRoll(PowerSource.EQUIPMENT, 3, ((5,), (8,)), name="Heavy pistol"),
                           track="physical_wounds", weapon="Heavy pistol"))
    history.do(NextTurn())
    return history
