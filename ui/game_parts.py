"""Where each game plugs its own window parts in, without anyone else naming the game.

A game may ship, by convention, ``ui/dialogs/<game id>_attack.py`` (its attack dialog, registered with
``ui.dialogs.attack.register_attack_dialog``) and ``ui/widgets/<game id>_panel.py`` (extra sections of the
combatant details panel: Člověk's dice banks, Institute's life pyramid, …, registered with
:func:`register_section`) and ``ui/charts/<game id>_odds.py`` (its charts' data and the odds dock's questions,
registered with ``ui.charts.odds_questions.register_question``). This module imports a game's part the first
time it is asked for, so start-up imports only what the fight on screen needs (see :func:`load_game_part`).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache
from typing import Protocol, TypeVar

from PySide6.QtWidgets import QWidget

from rules.encounter import Combatant, Encounter
from rules.history import Operation
from rules.systems import system_ids
from rules.systems.base import RuleSystem

Apply = Callable[[Operation], bool]  # applies an operation; False (with a message shown) if refused


class GameSection(Protocol):
    """A part of the details panel: built with the panel's ``apply``, refreshed with the combatant shown."""

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant`` as it is in ``state``."""


SectionFactory = Callable[[Apply], QWidget]
FactoryT = TypeVar("FactoryT", bound=SectionFactory)

_SECTIONS: dict[str, list[SectionFactory]] = {}
ATTACK = "ui.dialogs.{game}_attack"
PANEL = "ui.widgets.{game}_panel"
ODDS = "ui.charts.{game}_odds"


def register_section(system_id: str) -> Callable[[FactoryT], FactoryT]:
    """Class decorator: add a section to the details panel of the game ``system_id``."""

    def register(factory: FactoryT) -> FactoryT:
        _SECTIONS.setdefault(system_id, []).append(factory)
        return factory

    return register


@cache
def load_game_part(kind: str, system_id: str) -> None:
    """Import one part (:data:`ATTACK` or :data:`PANEL`) of one game, if the game has it (once)."""
    if system_id not in system_ids():
        return
    name = kind.format(game=system_id)
    if importlib.util.find_spec(name) is not None:
        importlib.import_module(name)


def sections_for(system_id: str) -> list[SectionFactory]:
    """The extra details-panel sections of a game, in registration order."""
    load_game_part(PANEL, system_id)
    return list(_SECTIONS.get(system_id, []))
