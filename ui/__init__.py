"""Bojovka's widgets, models, dialogs and charts (Qt)."""
