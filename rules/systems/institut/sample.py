"""The Institute sample fight: "Shootout at the Depot" (see app.samples, which writes it into resources/samples)."""

from __future__ import annotations

from rules.combatants import AddCombatant, ApplyHarm
from rules.encounter import Side, Weapon, frozen_map
from rules.history import Batch, History, new_history
from rules.systems.institut import DeclareActions, HoldAction, InstitutAttack, SetInstitutFlag, ThrowGrenade
from rules.systems.institut.arms import KIND, ready_made
from rules.systems.institut.combat import FireMode
from rules.systems.institut.tables import WeaponKind
from rules.turns import NextTurn, RollInitiative


def _weapons() -> dict[str, tuple[Weapon, ...]]:
    """What each of them carries, from the bundled weapon table (the notes say the same in words)."""
    return {
        # Sokolov empties his AK-74 on full auto (the sample's first attack).
        "Sokolov": (ready_made("AK-74", mode=FireMode.AUTO.value), ready_made("Knife")),
        # Vera shoots two Makarovs at once ("по-македонски"): one weapon, both magazines.
        "Vera": (ready_made("Makarov", "Two Makarovs", mode=FireMode.TWO_GUNS.value, magazine=16),
                 ready_made("F-1")),
        "Arkhipov": (ready_made("TT pistol"), Weapon("Sambo", frozen_map({KIND: WeaponKind.UNARMED.value}))),
        "Bandit": (ready_made("Sawn-off"), ready_made("Knife")),
    }


_AGENTS = (
    ("Sokolov", {"agility": 4, "thinking": 3, "strength": 3, "athletics": 2, "shooting": 6, "dodge": 3,
                 "boxing": 2, "armor": 2}, "AK-74: 7 dice, burst 3/2; body armor 2"),
    ("Vera", {"agility": 3, "thinking": 4, "strength": 2, "athletics": 4, "shooting": 4, "dodge": 5,
              "fencing": 3}, "Two Makarovs: 5 dice each; F-1 grenades"),
    ("Arkhipov", {"agility": 2, "thinking": 3, "strength": 4, "athletics": 2, "shooting": 3, "dodge": 2,
                  "boxing": 4, "martial_arts": 2}, "Sambo; TT pistol: 5 dice"),
)
_BANDIT = {"agility": 3, "thinking": 2, "strength": 3, "athletics": 2, "shooting": 3, "dodge": 2, "melee": 2}


def sample() -> History:
    """"Shootout at the Depot": three agents against four bandits, round one under way."""
    history = new_history("institut", "Shootout at the Depot")
    weapons = _weapons()
    agents = [AddCombatant(f"c{n}", name, Side.PLAYER, frozen_map(stats), notes=notes, weapons=weapons[name])
              for n, (name, stats, notes) in enumerate(_AGENTS, start=1)]
    bandits = [AddCombatant(f"c{n}", f"Bandit {n - 3}", Side.OPPONENT, frozen_map(_BANDIT),
                            notes="Sawn-off: 6 dice; knife: Strength +1", weapons=weapons["Bandit"])
               for n in range(4, 8)]
    history.do(Batch(tuple(agents), "Agents"))
    history.do(Batch(tuple(bandits), "Bandit ×4"))
    history.do(ApplyHarm("c4", "light", 2, "the chase before"))
    history.do(SetInstitutFlag("c7", "ambush", True))  # Bandit 4 waited behind the crates
    history.do(RollInitiative(frozen_map({
        "c1": (6, 5, 4, 4, 3, 2, 1), "c2": (5, 5, 4, 3, 2, 2, 1), "c3": (4, 3, 3, 2, 1),
        "c4": (5, 3, 2, 2, 1), "c5": (4, 4, 2, 1, 1), "c6": (3, 2, 2, 1, 1), "c7": (2, 2, 1, 1, 1)}),
        frozen_map({f"c{n}": (n % 6 + 1,) for n in range(1, 8)})))
    # Sokolov (25), full auto at Bandit 1: 6 − 2 = 4 dice, 16 against a dodge of 7. Damage 7 + 2 = 9 dice,
    # 16 points: Heavy, three times (a 3/2 burst hits twice, full auto once more); the third overflows.
    history.do(InstitutAttack("c1", "c4", "AK-74", (6, 5, 3, 2), "dodge", (4, 3),
                              damage_rolls=((4, 3, 2, 2, 1, 1, 1, 1, 1),), wounds_per_hit=3, rounds=6,
                              saved_weapon="AK-74"))  # 30 rounds, 24 left
    history.do(NextTurn())
    # Vera (22) peeks out, throws an F-1 and ducks back behind a held dodge: every roll −2.
    history.do(DeclareActions("c2", 2))
    history.do(HoldAction("c2", "if Bandit 4 fires, I dodge"))
    history.do(ThrowGrenade("c2", "F-1", 12, (6, 3), timed=True, saved_weapon="F-1"))  # Athletics 4 − 2: 9 of 12
    history.do(NextTurn())
    return history
