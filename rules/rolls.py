"""A dice-line roll recorded in the fight's log (it changes no numbers, but the GM wants it on record).

A dice line is read in the context of the open fight's game: the generic forms plus the game's own words
(:meth:`RuleSystem.dice_words`). A word another game knows is refused with a message naming the game that owns
it and the words this game's dice line knows.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceExpression, UnknownDiceWord, parse
from rules.encounter import Encounter
from rules.errors import DiceError
from rules.history import Applied, LogLine, Operation
from rules.systems import all_systems
from rules.systems.base import RuleSystem
from rules.text import _

Chains = tuple[tuple[int, ...], ...]


def _owner(word: str, system: RuleSystem) -> RuleSystem | None:
    """Another game whose dice line knows ``word``, or None."""
    return next((other for other in all_systems().values()
                 if other.id != system.id and any(word in extension.words for extension in other.dice_words())), None)


def parse_for(system: RuleSystem, text: str) -> DiceExpression:
    """Parse a dice line as ``system``'s dice line reads it; raises DiceError with a message for the GM."""
    try:
        return parse(text, system.dice_words())
    except UnknownDiceWord as unknown:
        owner = _owner(unknown.word, system)
        if owner is None:
            raise
        message = _("“{word}” belongs to the dice line of another game ({other}). The dice line of {game} "
                    "knows: {words}.")
        raise DiceError(message.format(word=unknown.word, other=_(owner.title), game=_(system.title),
                                       words=", ".join(unknown.known))) from None


def _replayed(system: RuleSystem, text: str) -> DiceExpression:
    """A recorded roll's expression: in its game's context, or (a fight recorded when the dice line knew every
    game's words) in the context of the game that owns the word."""
    try:
        return parse(text, system.dice_words())
    except UnknownDiceWord as unknown:
        owner = _owner(unknown.word, system)
        if owner is None:
            raise
        return parse(text, owner.dice_words())


@dataclass(frozen=True)
class RecordRoll(Operation):
    """A roll from the dice line: the expression and the faces (rolled or typed); ``who`` is optional."""

    kind = "record_roll"
    expression: str
    faces: Chains
    who: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        result = _replayed(system, self.expression).from_chains(self.faces)  # validates the faces (DiceError)
        if self.who:
            return Applied(encounter, (LogLine("{who} rolls {roll}", {"who": self.who, "roll": result.describe()}),))
        return Applied(encounter, (LogLine("Roll: {roll}", {"roll": result.describe()}),))
