"""The institut game's window parts: its attack dialog, details-panel sections and odds questions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ui.games.base import AttackDialogClass, GameUi, SectionFactory

if TYPE_CHECKING:
    from ui.charts.odds_questions import Question


class InstitutUi(GameUi):
    """What institut adds to the window; each part is imported when the window first asks for it."""

    def attack_dialog(self) -> AttackDialogClass | None:
        from ui.games.institut.attack import InstitutAttackDialog

        return InstitutAttackDialog

    def sections(self) -> Sequence[SectionFactory]:
        from ui.games.institut.panel import SECTIONS

        return SECTIONS

    def odds_questions(self) -> Sequence[Question]:
        from ui.games.institut.odds import QUESTIONS

        return QUESTIONS


GAME_UI = InstitutUi("institut")
