"""Composition root: starts Bojovka (the ``bojovka`` console script and ``python -m app.main``)."""

from __future__ import annotations

import sys

from rules.systems import all_systems
from rules.text import _


def main(argv: list[str] | None = None) -> int:
    """Start the application; until the window lands, report which games the rules layer offers."""
    del argv
    games = ", ".join(_(system.title) for system in all_systems().values())
    print(_("Bojovka: the rules layer is ready ({games}); the window arrives with the next milestone.")
          .format(games=games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
