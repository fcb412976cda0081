"""Attack dialogs, one per game: the window asks :func:`attack_dialog_for` and never names a game itself.

Each game's dialog module registers its class with :func:`register_attack_dialog`; importing the modules
here (statically, so a PyInstaller bundle contains them) fills the mapping. A game without an attack
dialog yet gets None, and the window simply offers no "Attack…" action for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from PySide6.QtWidgets import QDialog, QWidget

from app.document import EncounterDocument
from rules.dice import Roller


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


DialogT = TypeVar("DialogT", bound=AttackDialogClass)

_DIALOGS: dict[str, AttackDialogClass] = {}


def register_attack_dialog(system_id: str) -> Callable[[DialogT], DialogT]:
    """Class decorator: ``cls`` is the attack dialog of the game ``system_id``."""

    def register(cls: DialogT) -> DialogT:
        _DIALOGS[system_id] = cls
        return cls

    return register


def _load_game_dialogs() -> None:
    # Imported on first use, not at module level: each game module imports this one to register itself.
    import ui.dialogs.sr3_attack  # noqa: F401


def attack_dialog_for(system_id: str) -> AttackDialogClass | None:
    """The attack dialog class of the game ``system_id``, or None if that game has none yet."""
    _load_game_dialogs()
    return _DIALOGS.get(system_id)
