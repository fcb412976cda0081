"""What one game adds to the window, behind one object: the UI half of a game, as ``RuleSystem`` is its rules.

Each game's package ``ui/games/<game id>/`` defines ``GAME_UI``, a :class:`GameUi`. The generic window asks it
for the game's attack dialog, its details-panel sections and its odds-dock questions, and never names a game.
A game's package imports its heavy parts (dialogs, charts) inside these methods, so start-up imports only what
the fight on screen needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

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


class GameUi:
    """The window parts of one game. The defaults are a game with none: the generic window still runs it."""

    def __init__(self, system_id: str) -> None:
        self.id = system_id

    def attack_dialog(self) -> AttackDialogClass | None:
        """The game's attack dialog class, or None (attacks are then resolved with the dice line and Damage)."""
        return None

    def sections(self) -> Sequence[SectionFactory]:
        """Extra sections of the combatant details panel, top to bottom (banks, pyramid, seating…)."""
        return ()

    def odds_questions(self) -> Sequence[Question]:
        """The what-if questions of the odds dock."""
        return ()
