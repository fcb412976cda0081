"""The Souboj sample fight: "Ambush at the Ford" (see app.samples, which writes it into resources/samples)."""

from __future__ import annotations

from rules.combatants import AddCombatant
from rules.encounter import Effect, JsonValue, Side, Timing, Weapon, frozen_map
from rules.history import Batch, History, new_history
from rules.systems.base import Hook
from rules.systems.souboj import AddInitiativeEffect, Declare, HoldReaction, SoubojAttack
from rules.systems.souboj.model import Action, Kind
from rules.turns import NextTurn, RollInitiative


def _weapon(name: str, kind: Kind, strength: int = 0, defence: int = 0, **more: JsonValue) -> Weapon:
    return Weapon(name, frozen_map({"kind": kind.value, "weapon_strength": strength, "weapon_defence": defence,
                                    **more}))


#: What the notes say each one fights with; a crossbow holds its one bolt and is reloaded after each shot.
LONG_SWORD = _weapon("Long sword", Kind.MELEE, 6, 3)
FIRE_BOLT = _weapon("Fire bolt", Kind.MAGIC, spell_damage=7)
LONG_BOW = _weapon("Long bow", Kind.RANGED, 5)
CROSSBOW = _weapon("Crossbow", Kind.RANGED, 5, magazine=1, rounds=1)
AXE = _weapon("Axe", Kind.MELEE, 5, 3)
SHORT_SWORD = _weapon("Short sword", Kind.MELEE, 4, 2)

_PARTY = (
    ("Aleš", {"strength": 8, "dexterity": 6, "intelligence": 4, "endurance": 7, "level": 4, "hit_points": 24,
              "armor": 2, "weapon_strength": 6, "weapon_defence": 3}, "Long sword 6/3, chain mail 2", (LONG_SWORD,)),
    ("Bora", {"strength": 3, "dexterity": 5, "intelligence": 9, "endurance": 4, "level": 3, "hit_points": 14},
     "Mage: fire bolt, sleep", (FIRE_BOLT,)),
    ("Cyril", {"strength": 5, "dexterity": 9, "intelligence": 6, "endurance": 5, "level": 2, "hit_points": 17,
               "weapon_strength": 5}, "Long bow 5", (LONG_BOW,)),
)
_BANDIT = {"strength": 6, "dexterity": 5, "intelligence": 3, "endurance": 6, "level": 2, "hit_points": 16,
           "armor": 1, "weapon_strength": 4, "weapon_defence": 2}
_CHIEF = {"strength": 7, "dexterity": 6, "intelligence": 5, "endurance": 7, "level": 5, "hit_points": 22,
          "armor": 3, "weapon_strength": 5, "weapon_defence": 3}


def sample() -> History:
    """"Ambush at the Ford": three adventurers against a bandit chief and two bandits, round 1 under way.

    The chief has shot; three combatants share initiative 4 and act together, ordered magic → melee;
    the archer gave up the initiative to hold a reaction; a bandit tangled in the reeds lost the round.
    """
    history = new_history("souboj", "Ambush at the Ford")
    party = [AddCombatant(f"c{n}", name, Side.PLAYER, frozen_map(stats), notes=notes, weapons=weapons)
             for n, (name, stats, notes, weapons) in enumerate(_PARTY, start=1)]
    history.do(Batch(tuple(party), "Party"))
    foes = [AddCombatant("c4", "Chief Radim", Side.OPPONENT, frozen_map(_CHIEF), notes="Crossbow 5, axe 5/3",
                         weapons=(CROSSBOW, AXE)),
            *(AddCombatant(f"c{n}", f"Bandit {n - 4}", Side.OPPONENT, frozen_map(_BANDIT), group="Bandits",
                           notes="Short sword 4/2, leather 1", weapons=(SHORT_SWORD,)) for n in (5, 6))]
    history.do(Batch(tuple(foes), "Bandits"))
    reeds = Effect("e1", "Tangled in the reeds", target="c6", expires=Timing(Hook.ROUND_END.value), remaining=1)
    history.do(AddInitiativeEffect(reeds, -2))
    rolls = {"c1": (4,), "c2": (4,), "c3": (2,), "c4": (5,), "c5": (4,), "c6": (1,)}
    history.do(RollInitiative(frozen_map(rolls), frozen_map()))
    # The chief's crossbow: 1d6 + Dexterity 6 + 5 = 4 + 11 against Cyril's 1d6 + Dexterity 9 = 2 + 9: 4 damage;
    # its bolt is shot (a reload spends his next action).
    history.do(Declare("c4", Action.RANGED))
    history.do(SoubojAttack("c4", "c3", Kind.RANGED, CROSSBOW.name, 11, 9, 4, 2))
    history.do(NextTurn())
    history.do(Declare("c5", Action.MELEE))
    history.do(Declare("c1", Action.MELEE))
    history.do(Declare("c2", Action.MAGIC))
    history.do(HoldReaction("c3", note="Shoots whoever charges Bora."))
    history.do(SoubojAttack("c2", "c5", Kind.MAGIC, FIRE_BOLT.name, spell_damage=7))
    return history
