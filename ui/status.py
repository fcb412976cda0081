"""One line that says where the fight is: round, pass (for games with passes), who acts now, in the game's words."""

from __future__ import annotations

from app.i18n import _, ngettext
from rules.encounter import Encounter, SlotKind
from rules.systems.base import RuleSystem


def _who(state: Encounter, system: RuleSystem) -> str:
    slot = state.clock.current
    if slot is None:
        return ""
    if slot.kind is SlotKind.TIMER:
        # The GM may remove a timer's effect while it goes off: the order view then calls it "Timer" too.
        effect = state.effects.get(slot.ids[0]) if slot.ids else None
        return _("{event} goes off now").format(event=effect.name if effect is not None else _("Timer"))
    acting = [state.combatants[i].name for i in slot.ids if i in state.combatants]
    names, count = ", ".join(acting), len(acting)
    phases = system.time_units().phases
    if slot.phase is not None and phases is not None:
        return ngettext(*phases.acting, count).format(names=names, phase=slot.phase)
    return ngettext("{names} acts", "{names} act", count).format(names=names)


def fight_status(state: Encounter, system: RuleSystem) -> str:
    """E.g. "Round 2 · initiative pass 1 · Twitch acts (phase 22)"."""
    clock = state.clock
    if not clock.started:
        if not state.combatants:
            return _("Add combatants to start (Insert).")
        return _("Ready: roll initiative to start the fight (R).")
    if clock.pass_no == 0:
        return _("Round {round} is over: roll initiative for the next round (R).").format(round=clock.round)
    parts = [_("Round {round}").format(round=clock.round)]
    passes = system.time_units().passes
    if passes is not None:
        parts.append(_(passes.status).format(number=clock.pass_no))
    who = _who(state, system)
    if who:
        parts.append(who)
    return " · ".join(parts)
