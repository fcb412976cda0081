"""The clovek game's window parts: its attack dialog, details-panel sections and odds questions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ui.games.base import AttackDialogClass, GameUi, SectionFactory

if TYPE_CHECKING:
    from ui.charts.odds_questions import Question


class ClovekUi(GameUi):
    """What clovek adds to the window; each part is imported when the window first asks for it."""

    def attack_dialog(self) -> AttackDialogClass | None:
        from ui.games.clovek.attack import ClovekCheckDialog

        return ClovekCheckDialog

    def sections(self) -> Sequence[SectionFactory]:
        from ui.games.clovek.panel import SECTIONS

        return SECTIONS

    def odds_questions(self) -> Sequence[Question]:
        from ui.games.clovek.odds import QUESTIONS

        return QUESTIONS


GAME_UI = ClovekUi("clovek")
