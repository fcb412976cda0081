"""The SR3 sample fight: "Ambush at the Stuffer Shack" (see app.samples, which writes it into resources/samples)."""

from __future__ import annotations

from rules.combatants import AddCombatant
from rules.encounter import Side, frozen_map
from rules.history import Batch, History, new_history
from rules.systems.sr3 import Sr3Attack
from rules.turns import NextTurn, RollInitiative

_RUNNERS = (
    ("Twitch", {"body": 4, "quickness": 6, "strength": 4, "intelligence": 5, "willpower": 4,
                "reaction": 9, "reaction_natural": 5, "initiative_dice": 3, "ballistic": 5, "impact": 3},
     "Street samurai, Ares Predator 9M"),
    ("Wedge", {"body": 5, "quickness": 5, "strength": 5, "intelligence": 4, "willpower": 4, "reaction": 6,
               "reaction_natural": 4, "initiative_dice": 2, "ballistic": 6, "impact": 4}, "AK-97 8M, recoil comp. 4"),
    ("Sharon", {"body": 3, "quickness": 4, "strength": 2, "intelligence": 6, "willpower": 6, "reaction": 5,
                "reaction_natural": 5, "initiative_dice": 1, "ballistic": 2, "impact": 1},
     "Decker, offensive grenades"),
    ("Liam", {"body": 4, "quickness": 5, "strength": 3, "intelligence": 5, "willpower": 5, "reaction": 5,
              "reaction_natural": 5, "initiative_dice": 2, "ballistic": 3, "impact": 2}, "Adept, Predator 9M"),
)
_GANGER = {"body": 4, "quickness": 4, "strength": 4, "intelligence": 3, "willpower": 3, "reaction": 4,
           "reaction_natural": 4, "initiative_dice": 1, "ballistic": 3, "impact": 0}


def sample() -> History:
    """"Ambush at the Stuffer Shack": four runners against five gangers, first pass under way."""
    history = new_history("sr3", "Ambush at the Stuffer Shack")
    adds = [AddCombatant(f"c{n}", name, Side.PLAYER, frozen_map(stats), notes=notes)
            for n, (name, stats, notes) in enumerate(_RUNNERS, start=1)]
    adds += [AddCombatant(f"c{n}", f"Ganger {n - 4}", Side.OPPONENT, frozen_map(_GANGER), group="Halloweeners",
                          notes="Uzi III 6M, knife")
             for n in range(5, 10)]
    history.do(Batch(tuple(adds[:4]), "Runners"))
    history.do(Batch(tuple(adds[4:]), "Ganger ×5"))
    rolls = {"c1": (5, 2, 6), "c2": (3, 4), "c3": (6,), "c4": (2, 5)}
    rolls.update({f"c{n}": (4,) for n in range(5, 10)})
    history.do(RollInitiative(frozen_map(rolls), frozen_map({f"c{n}": (n % 6 + 1,) for n in range(1, 10)})))
    # Power 9 − ballistic 3: the ganger resists at TN 6; 4 hits − 1 = net 3 stages Moderate up to Serious.
    # A semi-automatic shot: one of Twitch's two simple actions this phase.
    history.do(Sr3Attack("c1", "c5", "Ares Predator", 9, "M", 4, ((5,), (6,), (4,), (2,), (5,)), 6,
                         ((3,), (1,), (6,), (4,)), attack_pool=1, mode="SA"))
    history.do(NextTurn())
    return history
