"""Somewhere to print to: a windowed Windows build starts with no ``sys.stdout``.

``--selftest`` and ``--screenshot`` report a line. A windowed Windows program gets ``sys.stdout = None`` even
when whoever started it handed it a file or a pipe (a CI step that redirects the output) or started it from a
console (a GM's cmd). This picks up the handed-over handles first, else attaches to the parent's console.
Elsewhere it does nothing.
"""

from __future__ import annotations

import sys
from typing import TextIO

ATTACH_PARENT_PROCESS = -1
STD_OUTPUT_HANDLE = -11
STD_ERROR_HANDLE = -12


def attach_parent_console() -> None:
    """On a windowed Windows build, give ``sys.stdout``/``sys.stderr`` somewhere to go, if there is anywhere."""
    if sys.platform != "win32" or sys.stdout is not None:
        return
    output, errors = _inherited(STD_OUTPUT_HANDLE), _inherited(STD_ERROR_HANDLE)
    if output is None and _attach_console():
        output = open("CONOUT$", "w", encoding="utf-8")  # noqa: SIM115 (lives as long as the process)
        errors = errors or open("CONOUT$", "w", encoding="utf-8")  # noqa: SIM115
    sys.stdout, sys.stderr = output, errors or sys.stderr


def _inherited(which: int) -> TextIO | None:
    """The file or pipe the parent passed as this standard handle, as a text stream; None if there is none."""
    if sys.platform != "win32":
        return None
    import ctypes
    import msvcrt

    get_handle = ctypes.windll.kernel32.GetStdHandle
    get_handle.restype = ctypes.c_void_p
    handle = get_handle(which)
    if not handle or handle == ctypes.c_void_p(-1).value:
        return None
    try:
        return open(msvcrt.open_osfhandle(handle, 0), "w", encoding="utf-8")
    except OSError:
        return None


def _attach_console() -> bool:
    if sys.platform != "win32":
        return False
    import ctypes

    return bool(ctypes.windll.kernel32.AttachConsole(ATTACH_PARENT_PROCESS))
