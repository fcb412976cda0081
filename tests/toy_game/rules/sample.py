"""The toy game's sample fight: two heroes against two goblins, round 1. Pure: the same history every time."""

from __future__ import annotations

from rules.combatants import AddCombatant
from rules.encounter import Side, frozen_map
from rules.history import Batch, History, new_history
from rules.turns import NextTurn, RollInitiative
from tests.toy_game.rules.ops import ToyAttack
from tests.toy_game.rules.system import TOY_ID


def sample() -> History:
    """"Goblins in the cellar": Ada and Bo against two goblins; Ada hits, a goblin misses."""
    history = new_history(TOY_ID, "Goblins in the cellar")
    history.do(Batch((AddCombatant("c1", "Ada", Side.PLAYER, frozen_map({"speed": 3, "skill": 2})),
                      AddCombatant("c2", "Bo", Side.PLAYER, frozen_map({"hit_points": 8}))), "Party"))
    history.do(Batch(tuple(AddCombatant(f"c{n}", f"Goblin {n - 2}", Side.OPPONENT,
                                        frozen_map({"hit_points": 3, "defence": 3, "damage": 1}))
                           for n in (3, 4)), "Goblins ×2"))
    history.do(RollInitiative(frozen_map({"c1": (4,), "c2": (2,), "c3": (5,), "c4": (1,)}),
                              frozen_map({"c1": (3,), "c2": (6,), "c3": (2,), "c4": (4,)})))
    history.do(ToyAttack("c1", "c3", 2))  # Ada (7) first: 2 + 2 against Defence 3, a hit for 2
    history.do(NextTurn())
    history.do(ToyAttack("c3", "c2", 1))  # Goblin 1 (7): 1 + 1 against Defence 4, a miss
    history.do(NextTurn())
    return history
