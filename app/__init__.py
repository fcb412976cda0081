"""Bojovka's application layer: the open encounter, storage, recovery, settings, paths, translations."""
