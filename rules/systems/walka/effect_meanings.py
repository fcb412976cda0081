"""What a Walka effect can mean to the attack dialog: a bonus or a penalty die.

The digest: situational modifiers ("cover, assisted aiming, cyberware, conditions, wounds") are bonus or penalty
dice, never numbers. **Decision** (the digest names no effect): an effect meaning one puts one such die on the rolls
of the combatant it is on (its attack as the attacker, its defence as the target), or on both sides' rolls when it
is on the whole encounter; several effects add up, and the rules cancel bonus against penalty as ever.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from rules.encounter import Effect
from rules.systems.base import EffectMeaning
from rules.text import N_

PENALTY_DIE: Final[str] = "penalty_die"
BONUS_DIE: Final[str] = "bonus_die"

MEANINGS: Final[tuple[EffectMeaning, ...]] = (
    EffectMeaning(PENALTY_DIE, N_("Penalty die"),
                  N_("One penalty die on the rolls of the one it is on (everyone's, on the whole encounter).")),
    EffectMeaning(BONUS_DIE, N_("Bonus die"),
                  N_("One bonus die on the rolls of the one it is on (everyone's, on the whole encounter).")),
)


def effect_dice(effects: Iterable[Effect], combatant_id: str) -> tuple[int, int]:
    """(bonus, penalty) dice the effects put on ``combatant_id``'s rolls."""
    bearing = [effect.meaning for effect in effects if effect.target in (None, combatant_id)]
    return bearing.count(BONUS_DIE), bearing.count(PENALTY_DIE)
