"""Člověk's window parts: its attack dialog, details-panel sections, odds questions and actor strip."""

from ui.games.base import GameUi, Part

GAME_UI = GameUi("clovek", attack=Part("ui.games.clovek.attack", "ClovekCheckDialog"),
                  sections=Part("ui.games.clovek.panel", "SECTIONS"),
                  odds=Part("ui.games.clovek.odds", "QUESTIONS"),
                  essentials=Part("ui.games.clovek.strip", "essentials"))
