"""What one game adds to the window, behind one object: the UI half of a game, as ``RuleSystem`` is its rules.

Each game's package ``ui/games/<game id>/`` defines ``GAME_UI``, a :class:`GameUi`. The generic window asks it
for the game's attack dialog, its details-panel sections and its odds-dock questions, and never names a game.
A game's package imports its heavy parts (dialogs, charts) inside these methods, so start-up imports only what
the fight on screen needs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from rules.encounter import Combatant, Encounter
from rules.history import Operation
from rules.systems.base import RuleSystem

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QWidget

    from app.document import EncounterDocument
    from rules.dice import Roller
    from ui.charts.odds_questions import Question

Apply = Callable[[Operation], bool]  # applies an operation; False (with a message shown) if refused


class GameSection(Protocol):
    """A part of the details panel: built with the panel's ``apply``, refreshed with the combatant shown."""

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant`` as it is in ``state``."""


SectionFactory = Callable[[Apply], "QWidget"]


class AttackDialogClass(Protocol):
    """What the window may construct: ``cls(document, roller, attacker_id, target_id, parent)``."""

    def __call__(
        self,
        document: EncounterDocument,
        roller: Roller,
        attacker_id: str | None = None,
        target_id: str | None = None,
        parent: QWidget | None = None,
    ) -> QDialog: ...


@dataclass(frozen=True)
class Part:
    """One of a game's window parts, named by module and attribute and imported the first time it is asked for
    (so start-up imports only what the fight on screen needs)."""

    module: str
    attribute: str

    def load(self) -> Any:
        """The part itself (a dialog class, a tuple of sections or questions)."""
        return getattr(importlib.import_module(self.module), self.attribute)


class GameUi:
    """The window parts of one game. Without parts it is a game with none: the generic window still runs it.

    A game passes its parts as :class:`Part` values (or overrides the methods for anything cleverer).
    """

    def __init__(self, system_id: str, attack: Part | None = None, sections: Part | None = None,
                 odds: Part | None = None) -> None:
        self.id = system_id
        self._attack, self._sections, self._odds = attack, sections, odds

    def attack_dialog(self) -> AttackDialogClass | None:
        """The game's attack dialog class, or None (attacks are then resolved with the dice line and Damage)."""
        return cast("AttackDialogClass", self._attack.load()) if self._attack else None

    def sections(self) -> Sequence[SectionFactory]:
        """Extra sections of the combatant details panel, top to bottom (banks, pyramid, seating…)."""
        return cast("Sequence[SectionFactory]", self._sections.load()) if self._sections else ()

    def odds_questions(self) -> Sequence[Question]:
        """The what-if questions of the odds dock."""
        return cast("Sequence[Question]", self._odds.load()) if self._odds else ()
