"""The toy game's window parts: its attack dialog (on the shared base) and one details-panel section."""

from ui.games.base import GameUi, Part

GAME_UI = GameUi("toy", attack=Part("tests.toy_game.ui.attack", "ToyAttackDialog"),
                 sections=Part("tests.toy_game.ui.panel", "SECTIONS"))
