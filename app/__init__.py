"""Bojovka's application layer: the open encounter, storage, recovery, settings, paths, translations."""

#: Bojovka's version, as saved files record it. The same as pyproject.toml's (a test holds them together): read
#: from the installed package's metadata it cost ~35 ms of start-up (importlib.metadata and the email parser),
#: and a frozen bundle without the dist-info said "unknown".
__version__ = "0.1.0"
