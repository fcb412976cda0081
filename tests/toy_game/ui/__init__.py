"""The toy game's window parts: one details-panel section (its attack dialog comes with the shared
attack-dialog base; until then the window resolves its attacks with the dice line and Damage)."""

from __future__ import annotations

from collections.abc import Sequence

from ui.games.base import GameUi, SectionFactory


class ToyUi(GameUi):
    """What the toy game adds to the window; its parts are imported when the window first asks for them."""

    def sections(self) -> Sequence[SectionFactory]:
        from tests.toy_game.ui.panel import SECTIONS

        return SECTIONS


GAME_UI = ToyUi("toy")
