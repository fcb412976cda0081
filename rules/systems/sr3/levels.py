"""SR3 damage levels and staging (shared by damage codes, odds and the condition monitor)."""

from __future__ import annotations

from typing import Final

from rules.errors import RulesError
from rules.text import N_, _, pgettext

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


def level_letters() -> dict[str, str]:
    """Typed letter (upper case) → level: the GM's language's letters first, then the English letters no level
    claims there. The Czech book writes L/M/V/S, its S being Deadly: in Czech ``S`` is Deadly, ``V`` Serious and
    ``D`` still Deadly; in English L/M/S/D."""
    letters = {pgettext("sr3 damage level", level).upper(): level for level in LEVELS}
    for level in LEVELS:
        letters.setdefault(level, level)
    return letters


def shown_letters() -> str:
    """The level letters of the GM's language, lightest first (``L, M, V, S`` in Czech)."""
    return ", ".join(pgettext("sr3 damage level", level) for level in LEVELS)


def typed_level(letter: str) -> str:
    """The level the GM typed as ``letter`` in their language (see :func:`level_letters`); a clear RulesError
    listing the letters otherwise."""
    level = level_letters().get(letter.strip().upper())
    if level is None:
        raise RulesError(_("“{letter}” is not a damage level: use {letters}.").format(
            letter=letter[:20], letters=shown_letters()))
    return level


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
