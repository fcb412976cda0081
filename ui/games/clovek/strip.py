"""What Člověk's actor strip shows of whoever acts: the type of this round's actions and the three dice banks,
each with a click to spend one die as an action and one to burn a stun wound for a die."""

from __future__ import annotations

from app.i18n import _, ngettext
from rules.encounter import Combatant, Encounter
from rules.systems.base import RuleSystem
from rules.systems.clovek import ClovekBurn, ClovekSpend
from rules.systems.clovek.banks import BANK_TITLES, BANK_WORDS, BANKS, bank
from rules.systems.clovek.economy import ACTION, action_type, burn_limit_left, stun_room
from ui.games.base import Control, Essentials, Reading, counted

ACTIONS_KEY = "action_type"


def _bank(combatant: Combatant, name: str, state: Encounter) -> Reading:
    """A bank's dice left of its size; − spends one as an action (the details panel's click on a die, in the
    actor's own turn), + burns one stun wound of the bank's type for a die back."""
    pool, word = bank(combatant, name), _(BANK_WORDS[name])
    spend = Control("−", _("Spend one die from {pool}").format(pool=word),
                    ClovekSpend(combatant.id, name, 1, ACTION) if pool.remaining > 0 else None)
    most = min(pool.spent, burn_limit_left(combatant, name, state), stun_room(combatant, name, state))
    burn = Control("+", ngettext("{name} may burn {count} more {bank} stun wound now.",
                                 "{name} may burn {count} more {bank} stun wounds now.", most).format(
        name=combatant.name, count=most, bank=word), ClovekBurn(combatant.id, name, 1) if most > 0 else None)
    return Reading(name, counted(word, pool.remaining, pool.size), _(BANK_TITLES[name]), (spend, burn))


def essentials(combatant: Combatant, state: Encounter, system: RuleSystem) -> list[Essentials]:
    """This round's action type once chosen, then the banks."""
    groups = []
    chosen = action_type(combatant)
    if chosen is not None:
        text = _("This round's actions: {bank}").format(bank=_(BANK_WORDS[chosen]))
        groups.append(Essentials("", (Reading(ACTIONS_KEY, text),)))
    groups.append(Essentials(_("Dice banks"), tuple(_bank(combatant, name, state) for name in BANKS)))
    return groups
