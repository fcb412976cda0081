"""Shadowrun 3's window parts: its attack dialog, its surprise test, its karma section and odds questions."""

from ui.games.base import GameUi, Part

GAME_UI = GameUi("sr3", attack=Part("ui.games.sr3.attack", "Sr3AttackDialog"),
                  odds=Part("ui.games.sr3.odds", "QUESTIONS"),
                  sections=Part("ui.games.sr3.panel", "SECTIONS"),
                  surprise=Part("ui.games.sr3.surprise", "SurpriseDialog"))
