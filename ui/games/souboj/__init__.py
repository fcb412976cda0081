"""Souboj's window parts: its attack dialog, details-panel sections, odds questions and actor strip."""

from ui.games.base import GameUi, Part

GAME_UI = GameUi("souboj", attack=Part("ui.games.souboj.attack", "SoubojAttackDialog"),
                  sections=Part("ui.games.souboj.panel", "SECTIONS"),
                  odds=Part("ui.games.souboj.odds", "QUESTIONS"),
                  essentials=Part("ui.games.souboj.strip", "essentials"))
