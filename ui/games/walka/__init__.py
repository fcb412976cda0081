"""Walka's window parts: its attack dialog, details-panel sections, odds questions and actor strip."""

from ui.games.base import GameUi, Part

GAME_UI = GameUi("walka", attack=Part("ui.games.walka.attack", "WalkaAttackDialog"),
                  sections=Part("ui.games.walka.panel", "SECTIONS"),
                  odds=Part("ui.games.walka.odds", "QUESTIONS"),
                  essentials=Part("ui.games.walka.strip", "essentials"))
