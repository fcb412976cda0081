"""Institute's window parts: its attack dialog, details-panel sections and odds questions."""

from ui.games.base import GameUi, Part

GAME_UI = GameUi("institut", attack=Part("ui.games.institut.attack", "InstitutAttackDialog"),
                  sections=Part("ui.games.institut.panel", "SECTIONS"),
                  odds=Part("ui.games.institut.odds", "QUESTIONS"))
