"""SR3 damage levels and staging (shared by damage codes, odds and the condition monitor)."""

from __future__ import annotations

from typing import Final

from rules.errors import RulesError
from rules.text import N_, _

#: Damage levels from lightest to heaviest.
LEVELS: Final[tuple[str, ...]] = ("L", "M", "S", "D")
#: Each level's name (English source, translated when shown).
LEVEL_LABELS: Final[dict[str, str]] = {"L": N_("Light"), "M": N_("Moderate"), "S": N_("Serious"), "D": N_("Deadly")}
#: Boxes each level fills on a 10-box condition monitor.
LEVEL_BOXES: Final[dict[str, int]] = {"L": 1, "M": 3, "S": 6, "D": 10}
#: Net successes needed to move the damage level one step.
SUCCESSES_PER_STAGE: Final[int] = 2


def check_level(level: str) -> str:
    """Return ``level`` upper-cased if it is one of L, M, S, D; otherwise raise a clear error."""
    upper = level.strip().upper()
    if upper not in LEVELS:
        raise RulesError(_("Unknown damage level {level!r}: use L, M, S or D.").format(level=level))
    return upper


def shift_level(level: str, steps: int) -> str | None:
    """Move ``level`` by ``steps`` (positive = heavier); D is the cap, below L is no damage (None)."""
    index = LEVELS.index(check_level(level)) + steps
    if index < 0:
        return None
    return LEVELS[min(index, len(LEVELS) - 1)]


def stage(level: str, net: int) -> str | None:
    """Stage ``level`` by ``net`` successes (net > 0 favours the attacker); every 2 net successes = 1 step.

    ``int`` division toward zero: net +3 is one step up, net -3 one step down.
    """
    steps = abs(net) // SUCCESSES_PER_STAGE
    return shift_level(level, steps if net >= 0 else -steps)
