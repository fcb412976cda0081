"""Printing: the print, preview and PDF commands, and where the summary's chart comes from."""
