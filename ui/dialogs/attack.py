"""Attack dialogs, one per game: the window asks :func:`attack_dialog_for` and never names a game itself.

Each game's dialog module (``ui/dialogs/<game id>_attack.py``, found by ``ui.game_parts``) registers its
class with :func:`register_attack_dialog`. A game without an attack dialog gets None, and the window says
so instead of opening one.
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


def attack_dialog_for(system_id: str) -> AttackDialogClass | None:
    """The attack dialog class of the game ``system_id``, or None if that game has none yet."""
    from ui.game_parts import ATTACK, load_game_part  # on first use: each game's module imports this one

    load_game_part(ATTACK, system_id)
    return _DIALOGS.get(system_id)
