"""Errors the rules layer raises on purpose; their message is already in the GM's language."""

from __future__ import annotations


class RulesError(ValueError):
    """A value the GM typed or a file supplied does not fit the rules; ``str(error)`` is shown as is."""


class DiceError(RulesError):
    """A dice expression or a typed-in set of faces cannot be used."""


class OperationError(RulesError):
    """An operation cannot be applied to the encounter in its current state."""


#: Longest quote of a problem inside a message: a value from a hostile file may be 100,000 characters.
MESSAGE_LIMIT = 300


def clipped(problem: str, limit: int = MESSAGE_LIMIT) -> str:
    """``problem`` cut to ``limit`` characters (with an ellipsis), for quoting inside a message."""
    return problem if len(problem) <= limit else problem[: limit - 1] + "…"
