"""The sr3 game's window parts: its attack dialog, details-panel sections and odds questions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ui.games.base import AttackDialogClass, GameUi

if TYPE_CHECKING:
    from ui.charts.odds_questions import Question


class Sr3Ui(GameUi):
    """What sr3 adds to the window; each part is imported when the window first asks for it."""

    def attack_dialog(self) -> AttackDialogClass | None:
        from ui.games.sr3.attack import Sr3AttackDialog

        return Sr3AttackDialog

    def odds_questions(self) -> Sequence[Question]:
        from ui.games.sr3.odds import QUESTIONS

        return QUESTIONS


GAME_UI = Sr3Ui("sr3")
