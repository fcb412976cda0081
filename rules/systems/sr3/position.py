"""SR3 position: standing or prone, kept on the character (sr3.md, Actions per phase).

"Free: … drop prone"; "Simple: … Change position: stand or drop prone; a wounded character stands only on Willpower
(2) + wound modifier." The prone state lives in ``Combatant.extra`` (only here read and written); the operations are
:mod:`.position_ops`. Dodging while prone: "GM +1..+2 when hemmed in or prone" (Ranged combat, step 4).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from rules.encounter import Combatant, frozen_map, with_item
from rules.systems.sr3.monitor import PHYSICAL, STUN, wound_modifiers
from rules.systems.sr3.odds import successes_distribution

#: The key in ``Combatant.extra``: present (True) while the character is prone.
PRONE: Final[str] = "prone"
#: Standing up when wounded: Willpower against this, plus the wound modifier.
STAND_UP_BASE_TN: Final[int] = 2
#: The dodge modifier prefilled for a prone target: the least of the GM's "+1..+2" (the GM may raise it).
PRONE_DODGE: Final[int] = 1


def is_prone(combatant: Combatant) -> bool:
    """Whether the character lies prone."""
    return combatant.extra.get(PRONE) is True


def with_prone(combatant: Combatant, prone: bool) -> Combatant:
    """A copy lying prone (``prone``) or standing."""
    if prone:
        return replace(combatant, extra=with_item(combatant.extra, PRONE, True))
    return replace(combatant, extra=frozen_map({key: value for key, value in combatant.extra.items() if key != PRONE}))


def wound_tn(combatant: Combatant) -> int:
    """The TN modifier of the character's wounds, both tracks added."""
    return wound_modifiers(combatant.boxes(PHYSICAL), combatant.boxes(STUN))[0]


def stand_up_tn(combatant: Combatant) -> int | None:
    """The TN of the Willpower test to stand up: 2 + wound modifier; None for an unwounded character, who just
    stands."""
    wounds = wound_tn(combatant)
    return STAND_UP_BASE_TN + wounds if wounds else None


def stand_up_dice(combatant: Combatant) -> int:
    """The dice of the stand-up test: Willpower (at least one die)."""
    return max(1, combatant.attribute("willpower"))


def stand_up_chance(combatant: Combatant) -> float:
    """The chance the character gets up with one simple action: 1 when unwounded, else at least one success of
    Willpower against :func:`stand_up_tn`."""
    tn = stand_up_tn(combatant)
    if tn is None:
        return 1.0
    return 1.0 - float(successes_distribution(stand_up_dice(combatant), tn)[0])
