"""Notations a log line keeps language-neutral and writes in the GM's language when it is shown.

A log argument named in ``LogLine.shown_as`` is stored as written in English (SR3's damage code "9D") and
rendered by the format registered under that name ("9S" in a Czech window). Games register their formats
when their rules are imported; a format this release does not know leaves the stored text as it is.
"""

from __future__ import annotations

from collections.abc import Callable

_FORMATS: dict[str, Callable[[str], str]] = {}


def register_log_format(name: str, shown: Callable[[str], str]) -> None:
    """Write arguments shown as ``name`` through ``shown``, which must accept any stored text."""
    _FORMATS[name] = shown


def shown_in_language(name: str, value: str) -> str:
    """``value`` as the format ``name`` writes it now (as stored when no such format is registered)."""
    shown = _FORMATS.get(name)
    return shown(value) if shown is not None else value


def attribute_format(system_id: str) -> str:
    """The format of a game's attribute keys ("armor" → "Armor (power penalty)", "Zbroj (postih k moci)" in Czech),
    registered when the game is loaded."""
    return f"attribute of {system_id}"
