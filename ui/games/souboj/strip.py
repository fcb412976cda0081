"""What Souboj's actor strip shows of whoever acts: its one action of the round and the action it declared."""

from __future__ import annotations

from app.i18n import _
from rules.encounter import Combatant, Encounter
from rules.systems.base import RuleSystem
from rules.systems.souboj.model import ACTION_LABELS, declared_now
from ui.games.base import Essentials, Reading, budget_essentials

DECLARED_KEY = "declared"


def essentials(combatant: Combatant, state: Encounter, system: RuleSystem) -> list[Essentials]:
    """The round's action left, and beside it what was declared (it orders a group acting together)."""
    budget = budget_essentials(combatant, state, system)
    declared = declared_now(combatant, state)
    if declared is None:
        return [budget]
    reading = Reading(DECLARED_KEY, _(ACTION_LABELS[declared.action]),
                      _("Within a simultaneous group: magic first, then ranged, then melee."))
    return [budget, Essentials(_("Action"), (reading,))]
