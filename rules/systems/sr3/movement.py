"""SR3 movement: walk and run rates, the per-phase allowance, movement TN modifiers, Athletics running."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from rules.errors import RulesError
from rules.systems.sr3.ranged import AttackerMovement, movement_modifier, require
from rules.systems.sr3.tables import Sr3Tables, label_for, load_tables
from rules.text import N_, _, ngettext

#: Labels of the bundled races; a race the GM adds in the data is shown by its key.
RACE_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {"human": N_("Human"), "dwarf": N_("Dwarf"), "elf": N_("Elf"), "ork": N_("Ork"), "troll": N_("Troll")}
)


def race_label(race: str) -> str:
    """Translated name of ``race``."""
    return label_for(RACE_LABELS, race)


@dataclass(frozen=True)
class MovementRates:
    """Metres a character may walk and run (per turn, or per phase after :func:`phase_allowance`)."""

    walk: int
    run: int


def run_multiplier(race: str, tables: Sr3Tables | None = None) -> int:
    """The race's run multiplier from the data (human 3, dwarf 2, ...)."""
    races = (tables or load_tables()).movement.run_multiplier
    if race not in races:
        known = ", ".join(sorted(races))
        raise RulesError(_("Unknown race {race!r}; known: {known}.").format(race=race, known=known))
    return races[race]


def movement_rates(quickness: int, race: str = "human", tables: Sr3Tables | None = None) -> MovementRates:
    """Walk rate = Quickness; run rate = Quickness × the race's multiplier (metres per turn)."""
    tables = tables or load_tables()
    require(quickness >= 0, _("Quickness cannot be negative."))
    walk = quickness * tables.movement.walk_multiplier
    return MovementRates(walk, quickness * run_multiplier(race, tables))


def per_phase(rate: int, passes: int) -> int:
    """``rate`` split over the character's ``passes`` this turn, rounded up."""
    require(passes >= 1, _("A character who moves has at least one initiative pass."))
    return math.ceil(rate / passes)


def phase_allowance(
    quickness: int, race: str = "human", passes: int = 1, tables: Sr3Tables | None = None
) -> MovementRates:
    """Metres per combat phase: each rate ÷ initiative passes this turn, rounded up."""
    rates = movement_rates(quickness, race, tables)
    return MovementRates(per_phase(rates.walk, passes), per_phase(rates.run, passes))


def athletics_bonus(successes: int, tables: Sr3Tables | None = None) -> int:
    """Extra running metres for this phase from an Athletics (running) test."""
    require(successes >= 0, _("Successes cannot be negative."))
    return successes * (tables or load_tables()).movement.athletics_metres_per_success


def athletics_tn(tables: Sr3Tables | None = None) -> int:
    """Base TN of the Athletics (running) complex action."""
    return (tables or load_tables()).movement.athletics_tn


def running_distance(
    quickness: int,
    race: str = "human",
    passes: int = 1,
    athletics_successes: int = 0,
    tables: Sr3Tables | None = None,
) -> int:
    """Metres run this phase: the run allowance plus the Athletics bonus."""
    tables = tables or load_tables()
    return phase_allowance(quickness, race, passes, tables).run + athletics_bonus(athletics_successes, tables)


def movement_tn_modifier(
    movement: AttackerMovement, difficult_terrain: bool = False, tables: Sr3Tables | None = None
) -> int:
    """TN modifier for acting while walking (+1, +2 difficult) or running (+4, +6 difficult)."""
    return movement_modifier(tables or load_tables(), movement, difficult_terrain)[1]


def combatant_allowance(quickness: int, run_multiplier: int, passes: int,
                        tables: Sr3Tables | None = None) -> tuple[MovementRates, MovementRates]:
    """(per turn, per phase) for a character: walk = Quickness, run = Quickness × its run multiplier (the
    character's own attribute, dwarf 2), each split over its ``passes`` this turn, rounded up."""
    tables = tables or load_tables()
    require(quickness >= 0 and run_multiplier >= 1, _("Quickness and the run multiplier cannot be negative."))
    turn = MovementRates(quickness * tables.movement.walk_multiplier, quickness * run_multiplier)
    return turn, MovementRates(per_phase(turn.walk, passes), per_phase(turn.run, passes))


def movement_text(quickness: int, run_multiplier: int, passes: int, tables: Sr3Tables | None = None) -> str:
    """"Walk 6 m, run 18 m a turn; in each of its 3 passes: walk 2 m, run 6 m." (sr3.md, Movement: "Per-phase
    allowance = rate ÷ passes this turn, round up; a phase without movement still uses up its share")."""
    turn, phase = combatant_allowance(quickness, run_multiplier, max(passes, 1), tables)
    text = _("Walk {walk} m, run {run} m a turn.").format(walk=turn.walk, run=turn.run)
    if passes < 1:
        return text
    per_pass = ngettext("In its {count} pass: walk {walk} m, run {run} m a phase.",
                        "In each of its {count} passes: walk {walk} m, run {run} m a phase.", passes)
    return f"{text} {per_pass.format(count=passes, walk=phase.walk, run=phase.run)}"


def moving_tn_text(tables: Sr3Tables | None = None) -> str:
    """"Acting once moved: walking +1 TN (difficult terrain +2), running +4 (+6).", from the GM's tables."""
    tables = tables or load_tables()
    walk, walk_hard, run, run_hard = (movement_tn_modifier(movement, hard, tables)
                                      for movement in (AttackerMovement.WALKING, AttackerMovement.RUNNING)
                                      for hard in (False, True))
    return _("Acting once moved: walking +{walk} TN (difficult terrain +{walk_hard}), running +{run} "
             "(+{run_hard}).").format(walk=walk, walk_hard=walk_hard, run=run, run_hard=run_hard)
