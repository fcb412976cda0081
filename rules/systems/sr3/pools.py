"""SR3 dice pools (the combat pool; other pools are typed in by the GM)."""

from __future__ import annotations

from rules.errors import RulesError
from rules.systems.sr3.tables import Sr3Tables, load_tables
from rules.text import _


def combat_pool(quickness: int, intelligence: int, willpower: int, tables: Sr3Tables | None = None) -> int:
    """Combat pool: (Quickness + Intelligence + Willpower) ÷ 2, rounded down."""
    if min(quickness, intelligence, willpower) < 0:
        raise RulesError(_("Attributes cannot be negative."))
    divisor = (tables or load_tables()).combat_pool_divisor
    return (quickness + intelligence + willpower) // divisor
