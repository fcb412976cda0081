"""The SR3 sample fight: "Ambush at the Stuffer Shack" (see app.samples, which writes it into resources/samples)."""

from __future__ import annotations

from rules.combatants import AddCombatant
from rules.encounter import JsonValue, Side, Weapon, frozen_map
from rules.history import Batch, History, new_history
from rules.systems.sr3 import Sr3Attack
from rules.turns import NextTurn, RollInitiative


def _weapon(name: str, **values: JsonValue) -> Weapon:
    """A weapon with a full magazine (``rounds`` = ``magazine``)."""
    if "magazine" in values:
        values["rounds"] = values["magazine"]
    return Weapon(name, frozen_map(values))


#: The seed's weapons: Liam's and Snot's Ares Predator (9M), Wedge's AK-97 (8M, recoil compensation 4 from a gas
#: vent 3 and a shock pad, a laser sight); magazines, classes and the grenade's code are SR3 core numbers.
_PREDATOR: dict[str, JsonValue] = {"damage": "9M", "weapon_class": "heavy_pistol", "modes": "SA", "magazine": 15}
_RUNNERS = (
    ("Twitch", {"body": 4, "quickness": 6, "strength": 4, "intelligence": 5, "willpower": 4,
                "reaction": 9, "reaction_natural": 5, "initiative_dice": 3, "ballistic": 5, "impact": 3},
     "Street samurai, Ares Predator 9M", (_weapon("Ares Predator", **_PREDATOR, skill=4),)),
    ("Wedge", {"body": 5, "quickness": 5, "strength": 5, "intelligence": 4, "willpower": 4, "reaction": 6,
               "reaction_natural": 4, "initiative_dice": 2, "ballistic": 6, "impact": 4}, "AK-97 8M, recoil comp. 4",
     (_weapon("AK-97", damage="8M", weapon_class="assault_rifle", modes="SA/BF/FA", recoil_compensation=4,
              laser_sight=True, magazine=38, skill=5),)),
    ("Sharon", {"body": 3, "quickness": 4, "strength": 2, "intelligence": 6, "willpower": 6, "reaction": 5,
                "reaction_natural": 5, "initiative_dice": 1, "ballistic": 2, "impact": 1},
     "Decker, offensive grenades",
     (_weapon("Offensive grenade", damage="10S", kind="blast", weapon_class="standard_grenade", skill=3),)),
    ("Liam", {"body": 4, "quickness": 5, "strength": 3, "intelligence": 5, "willpower": 5, "reaction": 5,
              "reaction_natural": 5, "initiative_dice": 2, "ballistic": 3, "impact": 2}, "Adept, Predator 9M",
     (_weapon("Ares Predator", **_PREDATOR, skill=6),)),
)
_GANGER = {"body": 4, "quickness": 4, "strength": 4, "intelligence": 3, "willpower": 3, "reaction": 4,
           "reaction_natural": 4, "initiative_dice": 1, "ballistic": 3, "impact": 0}
_GANGER_WEAPONS = (
    _weapon("Uzi III", damage="6M", weapon_class="smg", modes="SA/BF", recoil_compensation=1, laser_sight=True,
            magazine=24, skill=3),
    _weapon("Knife", damage="(STR)L", kind="melee", skill=3),
)


def sample() -> History:
    """"Ambush at the Stuffer Shack": four runners against five gangers, first pass under way."""
    history = new_history("sr3", "Ambush at the Stuffer Shack")
    adds = [AddCombatant(f"c{n}", name, Side.PLAYER, frozen_map(stats), notes=notes, weapons=weapons)
            for n, (name, stats, notes, weapons) in enumerate(_RUNNERS, start=1)]
    adds += [AddCombatant(f"c{n}", f"Ganger {n - 4}", Side.OPPONENT, frozen_map(_GANGER), group="Halloweeners",
                          notes="Uzi III 6M, knife", weapons=_GANGER_WEAPONS)
             for n in range(5, 10)]
    history.do(Batch(tuple(adds[:4]), "Runners"))
    history.do(Batch(tuple(adds[4:]), "Ganger ×5"))
    rolls = {"c1": (5, 2, 6), "c2": (3, 4), "c3": (6,), "c4": (2, 5)}
    rolls.update({f"c{n}": (4,) for n in range(5, 10)})
    history.do(RollInitiative(frozen_map(rolls), frozen_map({f"c{n}": (n % 6 + 1,) for n in range(1, 10)})))
    # Power 9 − ballistic 3: the ganger resists at TN 6; 4 hits − 1 = net 3 stages Moderate up to Serious.
    # A semi-automatic shot: one of Twitch's two simple actions this phase, one of his Predator's 15 rounds.
    history.do(Sr3Attack("c1", "c5", "Ares Predator", 9, "M", 4, ((5,), (6,), (4,), (2,), (5,)), 6,
                         ((3,), (1,), (6,), (4,)), attack_pool=1, mode="SA", saved_weapon="Ares Predator"))
    history.do(NextTurn())
    return history
