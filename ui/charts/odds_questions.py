"""The what-if questions the odds dock offers, registered per game: inputs declared as fields, one answer.

A game offers its questions through its :class:`~ui.games.base.GameUi`; the dock builds the form from the
fields and never names a game. Field labels
are marked with ``N_`` and translated when the form is built, so a language switch reaches them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ui.charts.odds_data import OddsData

#: Field values by key: a spin box's number, a check box's state (bool) or a choice's data.
Values = Mapping[str, object]


@dataclass(frozen=True)
class Field:
    """One input of a question: a spin box (``low``..``high``), a check box, or a choice among ``choices``."""

    key: str
    label: str
    value: object = 0
    low: int = 0
    high: int = 40
    choices: tuple[tuple[str, object], ...] = ()
    check: bool = False
    tip: str = ""


@dataclass(frozen=True)
class Question:
    """A question the GM may ask ("successes against a target number"): its fields and how the rules answer.

    ``answer`` may raise :class:`~rules.errors.RulesError`; the dock shows the message instead of a chart.
    """

    key: str
    title: str
    fields: tuple[Field, ...]
    answer: Callable[[Values], OddsData]


def defaults(question: Question) -> dict[str, object]:
    """Every field of ``question`` at its starting value."""
    return {field.key: field.value for field in question.fields}


def number(values: Values, key: str) -> int:
    """A spin box's value (a check box counts as 0 or 1)."""
    value = values[key]
    if not isinstance(value, int):
        raise TypeError(f"field {key} is not a number: {value!r}")
    return int(value)
