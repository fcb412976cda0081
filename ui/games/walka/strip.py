"""What Walka's actor strip shows of whoever acts: its two actions of the round, knocked down, its Chances."""

from __future__ import annotations

from app.i18n import _
from rules.encounter import Combatant, Encounter, Status
from rules.systems.base import RuleSystem
from rules.systems.walka import SpendChance
from rules.systems.walka import actions as walka_actions
from rules.systems.walka.system import CHANCE, chances_left, hit_points
from ui.games.base import Control, Essentials, Reading, budget_essentials, counted


def _chances(combatant: Combatant, state: Encounter, system: RuleSystem) -> Reading:
    """Chances left of how many, with the details panel's "Spend a Chance" (only at 0 Hit Points, going down)."""
    left, size = chances_left(combatant), combatant.pools[CHANCE].size
    down = hit_points(combatant) == 0 and system.status(combatant, state) in (Status.UNCONSCIOUS, Status.DYING)
    tip = _("At 0 Hit Points {name} falls unconscious unless a Chance is spent.").format(name=combatant.name)
    spend = Control("−", _("Spend a Chance"), SpendChance(combatant.id) if down and left > 0 else None)
    return Reading(CHANCE, counted(_("Chances"), left, size), tip, (spend,))


def essentials(combatant: Combatant, state: Encounter, system: RuleSystem) -> list[Essentials]:
    """The round's actions (knocked down as a reading beside them), then the Chances of a character who has any."""
    budget = budget_essentials(combatant, state, system)
    if walka_actions.knocked_down(combatant):
        down = Reading("knocked_down", _("Knocked down"),
                       _("A knocked-down character must stand up before fighting again."))
        budget = Essentials(budget.title, (*budget.readings, down))
    groups = [budget]
    if combatant.pools.get(CHANCE) is not None and combatant.pools[CHANCE].size > 0:
        groups.append(Essentials("", (_chances(combatant, state, system),)))
    return groups
