"""The Walka sample fight: "Ambush at the Night Market" (see app.samples, which writes it into resources/samples)."""

from __future__ import annotations

from rules.combatants import AddCombatant
from rules.encounter import Side, frozen_map
from rules.history import Batch, History, new_history
from rules.systems.walka import DecideGmTie, SetSeating, WalkaAction, WalkaAttack
from rules.systems.walka.weapons import CYBER, MELEE_WEAPON, make_weapon
from rules.turns import NextTurn, RollInitiative
from rules.weapons import ROUNDS, Reload

#: name, side, seat, attributes, notes
_PARTY = (
    ("Kira", Side.PLAYER, "Ania", {"hit_points": 8, "chances": 2, "firearms": 14, "dodge": 10, "weapon_dice": 3,
                                   "armor": 1}, "Solo, heavy pistol (3 dice)"),
    ("Osa", Side.ALLY, "Ania", {"hit_points": 4, "chances": 0, "firearms": 10, "dodge": 12, "weapon_dice": 2},
     "Kira's combat drone"),
    ("Wedge", Side.PLAYER, "Bartek", {"hit_points": 10, "chances": 1, "melee": 13, "parry": 11, "dodge": 8,
                                      "weapon_dice": 4, "armor": 2}, "Monowire and a machete"),
    ("Nova", Side.PLAYER, "Celina", {"hit_points": 7, "chances": 2, "interface": 15, "concentration": 13, "dodge": 9,
                                     "weapon_dice": 2}, "Netrunner"),
)
_GANGER = {"hit_points": 6, "chances": 0, "firearms": 11, "dodge": 8, "weapon_dice": 3, "armor": 1}
_GHOST = {"hit_points": 5, "chances": 0, "interface": 13, "concentration": 12, "dodge": 7, "weapon_dice": 3}

#: What each carries, read from the notes (the chapter gives no magazine sizes: these are the tracker's).
_WEAPONS = {
    "Kira": (make_weapon("Heavy pistol", 3, magazine=10),),
    "Osa": (make_weapon("Drone gun", 2, magazine=20),),
    "Wedge": (make_weapon("Monowire", 4, MELEE_WEAPON), make_weapon("Machete", 3, MELEE_WEAPON)),
    "Nova": (make_weapon("Attack program", 2, CYBER),),
    "Ghost": (make_weapon("Attack program", 3, CYBER),),
}
_SMG, _KNIFE = make_weapon("SMG", 3, magazine=30), make_weapon("Knife", 2, MELEE_WEAPON)


def sample() -> History:
    """"Ambush at the Night Market": three players (four characters) against the GM's gangers, round 1."""
    history = new_history("walka", "Ambush at the Night Market")
    party = [AddCombatant(f"c{n}", name, side, frozen_map(stats), seat=seat, notes=notes, weapons=_WEAPONS[name])
             for n, (name, side, seat, stats, notes) in enumerate(_PARTY, start=1)]
    # Ganger 2 has been spraying the market: one round left in the SMG.
    smgs = {5: _SMG, 6: _SMG.with_value(ROUNDS, 1), 7: _SMG}
    gangers = [AddCombatant(f"c{n}", f"Ganger {n - 4}", Side.OPPONENT, frozen_map(_GANGER), notes="SMG (3 dice)",
                            weapons=(smg, _KNIFE)) for n, smg in smgs.items()]
    gangers.append(AddCombatant("c8", "Ghost", Side.OPPONENT, frozen_map(_GHOST), notes="Gang netrunner",
                                weapons=_WEAPONS["Ghost"]))
    history.do(Batch(tuple(party), "Party"))
    history.do(Batch(tuple(gangers), "Gangers ×3 and Ghost"))
    history.do(SetSeating(("Ania", "Bartek", "Celina")))
    # Ania 7, Bartek 4, Celina 9, the GM 4: the GM ties with Bartek and lets the gangers go first.
    rolls = {"c1": (7,), "c2": (7,), "c3": (4,), "c4": (9,)}
    rolls.update({f"c{n}": (4,) for n in (5, 6, 7, 8)})
    history.do(RollInitiative(frozen_map(rolls), frozen_map({})))
    history.do(DecideGmTie(players_first=False))
    # Ganger 1 shoots Wedge: 6 against Firearms 11 beats Wedge's failed Dodge (9 against 8); 3 − armor 2 = 1 die.
    history.do(WalkaAttack("c5", "c3", "firearms", 11, "dodge", 8, (6,), (9,), weapon="SMG", weapon_dice=3,
                           armor=2, damage_faces=(5,)))
    # Ganger 2 shoots Nova: both succeed and Nova's 2 is lower than the ganger's 3: defended.
    history.do(WalkaAttack("c6", "c4", "firearms", 11, "dodge", 9, (3,), (2,), weapon="SMG", weapon_dice=3))
    history.do(Reload("c6", "SMG"))  # its last round spent: a fresh magazine, its second action
    history.do(WalkaAction("c7", "run"))
    history.do(WalkaAction("c8", "aim"))
    history.do(NextTurn())
    # Kira's first shot: 4 against Firearms 14, the ganger's Dodge 12 fails; 3 − armor 1 = 2 dice: 6, 4.
    history.do(WalkaAttack("c1", "c5", "firearms", 14, "dodge", 8, (4,), (12,), weapon="Heavy pistol",
                           weapon_dice=3, armor=1, damage_faces=(6, 4)))
    history.do(WalkaAction("c2", "move"))
    return history
