"""SR3 dice pools (the combat pool; other pools are typed in by the GM)."""

from __future__ import annotations

from rules.errors import OperationError, RulesError
from rules.systems.sr3.tables import Sr3Tables, load_tables
from rules.text import _, ngettext


def combat_pool(quickness: int, intelligence: int, willpower: int, tables: Sr3Tables | None = None) -> int:
    """Combat pool: (Quickness + Intelligence + Willpower) ÷ 2, rounded down."""
    if min(quickness, intelligence, willpower) < 0:
        raise RulesError(_("Attributes cannot be negative."))
    divisor = (tables or load_tables()).combat_pool_divisor
    return (quickness + intelligence + willpower) // divisor


def pool_cap(skill: int, left: int, at_most_skill: bool) -> int:
    """Combat pool dice an attack test may add: what is left, and (SR3 core option) no more than the skill."""
    return max(0, min(left, skill)) if at_most_skill else max(0, left)


def pool_over_skill(skill: int, pool_dice: int) -> str:
    """Why ``pool_dice`` are too many beside a skill of ``skill`` ("" when they are not)."""
    if pool_dice <= skill:
        return ""
    return ngettext("At most {skill} combat pool die: this encounter allows no more pool dice in a test than the "
                    "skill's rating (SR3 core; option \"Combat pool dice per attack test at most the skill's "
                    "rating\").",
                    "At most {skill} combat pool dice: this encounter allows no more pool dice in a test than the "
                    "skill's rating (SR3 core; option \"Combat pool dice per attack test at most the skill's "
                    "rating\").", skill).format(skill=skill)


def check_pool_over_skill(skill: int, pool_dice: int) -> None:
    """Refuse an attack test with more pool dice than its skill's rating (when the encounter's option is on)."""
    problem = pool_over_skill(skill, pool_dice)
    if problem:
        raise OperationError(problem)
