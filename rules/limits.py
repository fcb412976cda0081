"""The one table of limits on the numbers of a fight: what the window lets the GM enter, what an operation accepts
and what a file may hold are read from here, so they can never drift apart.

A file is hostile until checked (:mod:`rules.state_checks`): a pass number of 10⁹ or 100,000 initiative faces
pass the codec's own bound (10⁹) and then made the window allocate or loop that many times. Two kinds of limit:

- what the GM enters at once (a typed initiative score, a pool's size, damage marked): the window's field, the
  operation and the loader all use it;
- what a state may hold, where the rules add up or derive beyond what is entered (hits add up on a track, a
  game's pool is worked out from attributes): generous for play, small enough for every view to draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.text import N_, _


@dataclass(frozen=True)
class Limit:
    """Whole numbers from ``low`` to ``high``; ``label`` (English, marked with N_) names what is limited."""

    label: str
    low: int
    high: int

    def allows(self, value: int) -> bool:
        """Whether ``value`` lies within the limit."""
        return self.low <= value <= self.high

    def problem(self, value: int) -> str:
        """Why ``value`` is refused, in the GM's language."""
        return _("{what} must be between {low} and {high}, not {value}.").format(
            what=_(self.label), low=self.low, high=self.high, value=value)

    def count_problem(self, count: int) -> str:
        """Why ``count`` items are refused (a limit on how many there may be), in the GM's language."""
        return _("{what}: at most {limit}, not {count}.").format(what=_(self.label), limit=self.high, count=count)


#: The codec's bound on any whole number in a file (:data:`rules.serialize.MAX_INT`).
CODEC_HIGH: Final[int] = 10**9

# --- the fight's clock ------------------------------------------------------------------------------------------
#: Rounds (0: not started): far beyond any fight of a million operations. A round past it is refused.
ROUND: Final = Limit(N_("the round number"), 0, 99_999)
#: Initiative passes of a round (0: its initiative is still to roll). Passes come from scores (SR3: one per ten
#: points), so no round with scores within :data:`SCORE` has more.
PASS: Final = Limit(N_("the pass number"), 0, 10_000)

# --- initiative -------------------------------------------------------------------------------------------------
#: Any initiative score or phase: a roll's fixed part, its total, a turn's phase, a timer's phase.
SCORE: Final = Limit(N_("an initiative score"), -99_999, 99_999)
#: A score the GM sets or a total a player announces (the initiative column, the Roll initiative dialog).
TYPED_SCORE: Final = Limit(N_("an initiative score the GM types"), -999, 999)
#: Dice one combatant rolls for initiative (each face is kept with the roll, and shown).
INITIATIVE_DICE: Final = Limit(N_("initiative dice"), 0, 999)
#: Dice rolled to settle ties, kept with the roll.
TIEBREAK_DICE: Final = Limit(N_("tie-break dice"), 0, 99)
#: Sides of a die (the dice line's bound).
SIDES: Final = Limit(N_("the sides of a die"), 1, 1000)
#: A face rolled on a die.
FACE: Final = Limit(N_("a die's face"), 1, SIDES.high)

# --- combatants -------------------------------------------------------------------------------------------------
#: An attribute (the details panel, the roster and bestiary, Add combatants).
ATTRIBUTE: Final = Limit(N_("an attribute"), -9_999, 9_999)
#: Damage marked or healed at once (a click on a track, Damage and Heal).
HARM: Final = Limit(N_("damage marked at once"), 0, 9_999)
#: Damage on one track: hits add up beyond what is marked at once (views draw only a few overflow boxes).
DAMAGE: Final = Limit(N_("damage on a track"), 0, CODEC_HIGH)
#: A pool's size as the GM types it (the details panel).
POOL_SIZE: Final = Limit(N_("a pool's size"), 0, 200)
#: Dice a pool holds or has spent: a game works pools out from attributes (Člověk: twice an attribute).
POOL_DICE: Final = Limit(N_("dice in a pool"), 0, 99_999)
#: Actions of one kind a combatant used since they were last counted afresh.
ACTIONS: Final = Limit(N_("actions used"), 0, CODEC_HIGH)

# --- effects and ids --------------------------------------------------------------------------------------------
#: How many more times an effect lasts (the Add effect form's count).
EFFECT_COUNT: Final = Limit(N_("an effect's duration"), 1, 999)
#: The counter new ids are numbered from: it only grows, by one per new combatant.
SERIAL: Final = Limit(N_("the id counter"), 0, CODEC_HIGH)
