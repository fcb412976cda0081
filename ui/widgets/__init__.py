"""Reusable widgets: monitors, details, dice line, log, player view."""
