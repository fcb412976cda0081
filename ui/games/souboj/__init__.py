"""The souboj game's window parts: its attack dialog, details-panel sections and odds questions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ui.games.base import AttackDialogClass, GameUi, SectionFactory

if TYPE_CHECKING:
    from ui.charts.odds_questions import Question


class SoubojUi(GameUi):
    """What souboj adds to the window; each part is imported when the window first asks for it."""

    def attack_dialog(self) -> AttackDialogClass | None:
        from ui.games.souboj.attack import SoubojAttackDialog

        return SoubojAttackDialog

    def sections(self) -> Sequence[SectionFactory]:
        from ui.games.souboj.panel import SECTIONS

        return SECTIONS

    def odds_questions(self) -> Sequence[Question]:
        from ui.games.souboj.odds import QUESTIONS

        return QUESTIONS


GAME_UI = SoubojUi("souboj")
