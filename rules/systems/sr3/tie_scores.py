"""The first step of SR3's tie chain: which earlier score two tied fighters compare (sr3.md, Ties).

The seed: "1. Higher score in the previous pass", and its example: Richie 17, wounded to 15, ties Rváč 3 (15), yet
"Richie měl ovšem původně v prvním průběhu iniciativy vyšší skóre" (Richie originally had the higher score in the
first pass): Richie goes first, in pass 1 and again in pass 2 (5 vs 5). The digest's **Decision**: compare "the scores
before any wound taken this turn (rolled results, earlier wounds subtracted)"; option: the previous pass's scores.

Either way the score compared subtracts the wound modifier the fighter had when that score was set: it is noted on
the fighter (:data:`~rules.systems.sr3.initiative.TIE_WOUNDS`) at the roll, and, for the previous pass's scores, again
as each pass begins. Fights saved before this option compared the rolled results (no wound subtracted at all, so two
fighters tied now were split by an old wound): the option's value when a file holds none, so they replay as played;
a new fight starts with the Decision.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from typing import Final

from rules.encounter import Combatant, Encounter, frozen_map, with_item
from rules.systems.sr3.initiative import TIE_WOUNDS, wound_initiative_penalty
from rules.text import N_

#: The option's key (an encounter option, shown in the settings form).
TIE_SCORES: Final[str] = "tie_first_step"


class TieScores(StrEnum):
    """What the first tie-breaker compares."""

    ROLLED = "rolled"  # fights saved before the option: the rolled results, no wound subtracted
    TURN_START = "turn_start"  # the Decision: before this turn's wounds
    PASS_START = "pass_start"  # the previous pass's scores: as they stood when this pass began


CHOICES: Final[tuple[tuple[str, str], ...]] = (
    (TieScores.TURN_START.value, N_("the scores before this turn's wounds (rolled results, earlier wounds "
                                    "subtracted)")),
    (TieScores.PASS_START.value, N_("the previous pass's scores (in the first pass: the scores before this turn's "
                                    "wounds)")),
    (TieScores.ROLLED.value, N_("the rolled results, no wound subtracted (as fights saved before this choice)")),
)


def tie_scores(value: object) -> TieScores:
    """The option's value as a rule (an unknown value: the rolled results, as before the option)."""
    return next((member for member in TieScores if member.value == value), TieScores.ROLLED)


def _noted(combatant: Combatant, penalty: int | None) -> Combatant:
    """``combatant`` with the wound modifier the first tie-breaker subtracts (None: none kept)."""
    if penalty is None or penalty == 0:
        if TIE_WOUNDS not in combatant.extra:
            return combatant
        return replace(combatant, extra=frozen_map({k: v for k, v in combatant.extra.items() if k != TIE_WOUNDS}))
    if combatant.extra.get(TIE_WOUNDS) == penalty:
        return combatant
    return replace(combatant, extra=with_item(combatant.extra, TIE_WOUNDS, penalty))


def noted_at_roll(combatant: Combatant, rule: TieScores) -> Combatant:
    """Initiative is being rolled: the wounds it is rolled with are the earlier wounds the first step subtracts."""
    return _noted(combatant, None if rule is TieScores.ROLLED else wound_initiative_penalty(combatant))


def noted_at_pass_start(encounter: Encounter, rule: TieScores) -> Encounter:
    """A pass begins: with the previous pass's scores, this pass's wounds are measured from now on."""
    if rule is not TieScores.PASS_START or encounter.clock.pass_no <= 1:
        return encounter
    state = encounter
    for combatant in encounter.combatants.values():
        if combatant.initiative is not None:
            noted = _noted(combatant, wound_initiative_penalty(combatant))
            if noted is not combatant:
                state = state.with_combatant(noted)
    return state
