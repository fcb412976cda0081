"""How far an Institute combatant may still move this round, and the metres it has moved.

institut.md, Movement: "Moving more than once a round is allowed, but in total at most **Agility + Athletics
metres** per round, minus 1 m per additional action (a quick careful step, not a run). Sprinting at full speed as
the only action of the round: (Agility + Athletics) × 4 metres." The window types a move where the rules need its
length, crossing squares (square metres) under suppression fire; the metres moved are kept per round in the
combatant's ``extra`` (:data:`MOVED`), so a second move counts the first.

A fight saved before the limit was kept does not store :data:`MOVEMENT_LIMIT`: nothing is counted or refused
there, so it replays unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from rules.encounter import Combatant, Encounter, frozen_map
from rules.systems.base import OptionKind, OptionSpec
from rules.systems.institut import rounds
from rules.systems.institut.tables import Modifiers
from rules.text import N_, _, ngettext

MOVED: Final[str] = "moved"  # extra: {"round": n, "metres": m}, the metres moved in round n
MOVEMENT_LIMIT: Final[str] = "movement_limit"  # option: the limit is kept (stored in fights made since)

MOVEMENT_OPTION: Final[OptionSpec] = OptionSpec(
    MOVEMENT_LIMIT, N_("Movement is limited per round"), OptionKind.BOOL, True,
    help=N_("“In total at most Agility + Athletics metres per round, minus 1 m per additional action”; sprinting "
            "as the only action of the round, (Agility + Athletics) × 4 metres. Squares crossed under suppression "
            "fire count; a longer move is refused unless you override it. Off: nothing is refused, as in fights "
            "saved before this option."))


def enforced(encounter: Encounter) -> bool:
    """Whether the fight counts movement (it stores the option on: fights made since it exists do)."""
    return encounter.options.get(MOVEMENT_LIMIT) is True


def moved(combatant: Combatant, encounter: Encounter) -> int:
    """Metres the combatant has already moved this round (none once the round has ended)."""
    record = combatant.extra.get(MOVED)
    if not rounds.round_running(encounter) or not isinstance(record, Mapping) \
            or record.get("round") != encounter.clock.round:
        return 0
    metres = record.get("metres")
    return metres if isinstance(metres, int) and not isinstance(metres, bool) else 0


def allowance(combatant: Combatant, modifiers: Modifiers, sprinting: bool) -> int:
    """Metres the combatant may move in the whole round: Agility + Athletics less a metre per additional
    action, or four times Agility + Athletics when sprinting."""
    agility, athletics = combatant.attribute("agility"), combatant.attribute("athletics")
    if sprinting:
        return rounds.sprint(agility, athletics, modifiers)
    return rounds.movement(agility, athletics, rounds.round_actions(combatant).total_declared, modifiers)


def refusal(combatant: Combatant, encounter: Encounter, modifiers: Modifiers, metres: int,
            sprinting: bool = False) -> str:
    """Why moving ``metres`` more now breaks the rule, quoting it ("" when it does not)."""
    declared = rounds.round_actions(combatant).total_declared
    if sprinting and declared > 1:
        return ngettext("{name} has declared {count} action: a sprint is “the only action of the round”.",
                        "{name} has declared {count} actions: a sprint is “the only action of the round”.",
                        declared).format(name=combatant.name, count=declared)
    limit = allowance(combatant, modifiers, sprinting)
    done = moved(combatant, encounter)
    if done + metres <= limit:
        return ""
    rule = (_("“Sprinting at full speed as the only action of the round: (Agility + Athletics) × 4 metres”")
            if sprinting else _("“in total at most Agility + Athletics metres per round, minus 1 m per additional "
                                "action”"))
    return _("{name} may move {limit} m this round and has moved {done} m: not {metres} m more. {rule}.").format(
        name=combatant.name, limit=limit, done=done, metres=metres, rule=rule)


def after_move(combatant: Combatant, encounter: Encounter, metres: int) -> Combatant:
    """The combatant once it has moved ``metres`` more this round."""
    total = moved(combatant, encounter) + metres
    return rounds.set_extra(combatant, MOVED, frozen_map({"round": encounter.clock.round, "metres": total}))


def moved_notes(combatant: Combatant, encounter: Encounter) -> list[str]:
    """The metres already moved this round, for the combatant's notes (none in a fight that does not count them)."""
    metres = moved(combatant, encounter) if enforced(encounter) else 0
    return [_("Moved this round: {metres} m.").format(metres=metres)] if metres else []
