"""Bojovka's rules layer: pure Python, no Qt, no files, no clocks, no global random state."""
