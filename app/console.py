"""Somewhere to print to: a windowed Windows build starts with no ``sys.stdout``.

``--selftest`` and ``--screenshot`` report a line; started from a console (a GM's cmd, a CI step) the frozen
Windows app attaches to that console so the line is seen. Elsewhere this does nothing.
"""

from __future__ import annotations

import sys

ATTACH_PARENT_PROCESS = -1


def attach_parent_console() -> None:
    """On a windowed Windows build, write ``sys.stdout``/``sys.stderr`` to the console that started us, if any."""
    if sys.platform != "win32" or sys.stdout is not None:
        return
    import ctypes

    if ctypes.windll.kernel32.AttachConsole(ATTACH_PARENT_PROCESS):
        sys.stdout = open("CONOUT$", "w", encoding="utf-8")  # noqa: SIM115 (lives as long as the process)
        sys.stderr = open("CONOUT$", "w", encoding="utf-8")  # noqa: SIM115
