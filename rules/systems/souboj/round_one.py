"""Round 1: souboj.md, "Start of combat".

"V prvním kole nemusí dodržet iniciativa" (in the first round initiative need not be kept): some sides are readier
than others, usually the attacker. Decision: "the GM may set the round-1 order by hand (e.g. the readier side
first); the two surprise variants below are presets": only the attacking side gets initiative, or the defending side
gets only reactions. The GM picks one of these for round 1 (option ``surprise``) and which side attacks (option
``surprise_attackers``); any single score can still be typed in the initiative column.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rules.encounter import Combatant, Encounter, Side
from rules.text import N_

SURPRISE: Final = "surprise"
SURPRISE_ATTACKERS: Final = "surprise_attackers"
NO_SURPRISE, READIER_FIRST = "none", "readier_first"
ATTACKERS_ONLY, REACTIONS_ONLY = "attackers_only", "reactions_only"
OPPONENTS_ATTACK, PARTY_ATTACKS = "opponents", "party"

#: The round-1 orders, as the settings name them (the plain roll first: the seed adds no extra round).
ROUND_ONE_LABELS: Final[Mapping[str, str]] = {
    NO_SURPRISE: N_("No surprise round"),
    READIER_FIRST: N_("The attacking side acts first (it is readier)"),
    ATTACKERS_ONLY: N_("Only the attacking side gets initiative"),
    REACTIONS_ONLY: N_("The defenders get only reactions"),
}


def surprise(encounter: Encounter) -> str:
    """The round-1 order chosen: the plain roll, the readier side first, or a surprise variant."""
    value = encounter.options.get(SURPRISE, NO_SURPRISE)
    return value if isinstance(value, str) and value in ROUND_ONE_LABELS else NO_SURPRISE


def defends_in_surprise(combatant: Combatant, encounter: Encounter) -> bool:
    """Whether the combatant is on the side that is surprised (or the less ready one)."""
    party = combatant.side in (Side.PLAYER, Side.ALLY)
    return party if encounter.options.get(SURPRISE_ATTACKERS, OPPONENTS_ATTACK) != PARTY_ATTACKS else not party


def readier_first_now(encounter: Encounter) -> bool:
    """Whether this round is round 1 played with the readier side first, whatever the scores."""
    return surprise(encounter) == READIER_FIRST and encounter.clock.round == 1


def order_bucket(combatant: Combatant, encounter: Encounter) -> int:
    """0 for those who act first this round, 1 for those after them (always 0 but in a readier-first round 1)."""
    return int(readier_first_now(encounter) and defends_in_surprise(combatant, encounter))
