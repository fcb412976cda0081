"""The summary and the prep sheet as PDF files: what File → Export and ``bojovka --print-summary`` run.

The chart of initiative passes is drawn by the ui layer; the caller hands it in (``chart``), so this module
stays free of widgets.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

from PySide6.QtCore import QDate, QFileInfo
from PySide6.QtGui import QImage

from app.prep_sheet import prep_sheet_document
from app.printing import Paper, Printable, write_pdf
from app.storage import load_encounter
from app.summary import encounter_title, summary_documents
from rules.history import History

Chart = Callable[[History], QImage | None]


class Printout(StrEnum):
    """What can be printed."""

    SUMMARY = "summary"
    PREP_SHEET = "prep_sheet"


def saved_date(path: Path | None) -> QDate | None:
    """The day the encounter file was last saved (None: not saved, the printout then shows today)."""
    if path is None or not path.exists():
        return None
    return QFileInfo(str(path)).lastModified().date()


def printout_document(what: Printout, history: History, date: QDate | None, chart: Chart | None = None
                      ) -> Printable:
    """What to print: the summary of the fight (in parts, for a long fight) or the prep sheet of who is in it now."""
    if what is Printout.PREP_SHEET:
        return prep_sheet_document(history.state, date=date)
    return summary_documents(history, date=date, chart_image=chart(history) if chart is not None else None)


def export_pdf(what: Printout, history: History, target: Path, paper: Paper, *, date: QDate | None = None,
               chart: Chart | None = None) -> int:
    """Write the printout as a PDF file; returns its page count (StorageError if the disk refuses)."""
    document = printout_document(what, history, date, chart)
    return write_pdf(document, encounter_title(history.state.name), paper, target)


def print_file(what: Printout, source: Path, target: Path, paper: Paper, chart: Chart | None = None) -> int:
    """Load an encounter file and write its printout (RulesError with a clear message if the file is bad)."""
    history = load_encounter(source)
    return export_pdf(what, history, target, paper, date=saved_date(source), chart=chart)
