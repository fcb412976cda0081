"""Dialogs: attack resolution per game, adding combatants, settings."""
