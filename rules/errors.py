"""Errors the rules layer raises on purpose; their message is already in the GM's language."""

from __future__ import annotations


class RulesError(ValueError):
    """A value the GM typed or a file supplied does not fit the rules; ``str(error)`` is shown as is."""


class DiceError(RulesError):
    """A dice expression or a typed-in set of faces cannot be used."""


class OperationError(RulesError):
    """An operation cannot be applied to the encounter in its current state."""
