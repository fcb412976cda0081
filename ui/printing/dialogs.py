"""File → Print summary…, Print preview…, Export summary as PDF… and Print prep sheet…: Qt's print dialogs
around the documents app/summary.py and app/prep_sheet.py build.

The paper starts as the GM's setting (A4 or Letter, or the locale's); the print dialogs may change it, and the
PDF export asks for it with the file name (one file-type entry per paper) and remembers the choice.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

from PySide6.QtCore import QDate
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QDialog, QFileDialog, QMainWindow, QMessageBox

from app.i18n import _, ngettext
from app.print_jobs import Printout, export_pdf, printout_document, saved_date
from app.printing import Paper, page_layout, paper_from_setting, print_document
from app.summary import encounter_title
from app.workspace import Workspace
from rules.errors import RulesError
from ui.printing.summary_chart import summary_chart
from ui.widgets.messages import as_written

#: File-type entries of the PDF export, one per paper.
PDF_FILTERS: Final[dict[Paper, str]] = {"a4": "PDF, A4 (*.pdf)", "letter": "PDF, Letter (*.pdf)"}
STATUS_MS: Final[int] = 6000


class PreviewDialog(QPrintPreviewDialog):
    """Qt's print preview, holding on to its printer (Qt's dialog does not own it: without this reference
    Python would free the printer while the dialog still paints on it)."""

    def __init__(self, printer: QPrinter, parent: QMainWindow) -> None:
        super().__init__(printer, parent)
        self.kept_printer = printer


class Printing:
    """The print commands of the main window, on the workspace's open encounter."""

    def __init__(self, window: QMainWindow, workspace: Workspace) -> None:
        self._window = window
        self._workspace = workspace

    # --- what to print ---------------------------------------------------------------------------
    def _title(self) -> str:
        return encounter_title(self._workspace.document.state.name)

    def _paper(self) -> Paper:
        return paper_from_setting(self._workspace.settings.paper)

    def _date(self) -> QDate | None:
        """The day the fight was saved, if what is printed is what was saved (else today)."""
        document = self._workspace.document
        return None if document.modified else saved_date(document.path)

    def render(self, what: Printout, printer: QPrinter) -> int:
        """Print ``what`` on ``printer`` (a real one, a PDF file or the preview); returns the page count."""
        document = printout_document(what, self._workspace.document.history, self._date(), summary_chart)
        return print_document(document, printer, self._title())

    def printer(self) -> QPrinter:
        """A high-resolution printer on the GM's paper."""
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setPageLayout(page_layout(self._paper()))
        printer.setDocName(self._title())
        return printer

    # --- the commands ------------------------------------------------------------------------------
    def print_summary(self) -> None:
        """The print dialog, then the summary on the chosen printer."""
        printer = self.printer()
        dialog = QPrintDialog(printer, self._window)
        dialog.setWindowTitle(_("Print the encounter summary"))
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self._guarded(lambda: self._report_printed(self.render(Printout.SUMMARY, printer)))

    def preview(self, what: Printout) -> PreviewDialog:
        """The print preview of ``what`` (paper, zoom and the print button are Qt's own)."""
        dialog = PreviewDialog(self.printer(), self._window)
        dialog.setWindowTitle(_("Prep sheet") if what is Printout.PREP_SHEET else _("Encounter summary"))
        dialog.paintRequested.connect(lambda printer: self._guarded(lambda: self.render(what, printer)))
        return dialog

    def preview_summary(self) -> None:
        """Print preview of the summary."""
        self.preview(Printout.SUMMARY).exec()

    def preview_prep_sheet(self) -> None:
        """Print preview of the prep sheet, to print it from there."""
        self.preview(Printout.PREP_SHEET).exec()

    def export_summary_pdf(self) -> None:
        """Ask where (and on which paper), then write the summary as a PDF."""
        chosen = self.ask_pdf_path()
        if chosen is not None:
            self.export(Printout.SUMMARY, *chosen)

    def ask_pdf_path(self) -> tuple[Path, Paper] | None:
        """The file and paper the GM picks (the paper from the file-type entry), or None if cancelled."""
        suggested = self._workspace.start_directory() / f"{self._title()}.pdf"
        paper = self._paper()
        name, chosen = QFileDialog.getSaveFileName(self._window, _("Export the summary as PDF"), str(suggested),
                                                   ";;".join(PDF_FILTERS.values()), PDF_FILTERS[paper])
        if not name:
            return None
        self._workspace.chose_file(Path(name))  # the next file dialog starts in this folder
        paper = next((key for key, text in PDF_FILTERS.items() if text == chosen), paper)
        path = Path(name) if name.lower().endswith(".pdf") else Path(name + ".pdf")
        return path, paper

    def export(self, what: Printout, path: Path, paper: Paper) -> None:
        """Write ``what`` to ``path`` on ``paper`` and remember the paper."""
        if paper != self._workspace.settings.paper:
            self._workspace.update_settings(paper=paper)
        history = self._workspace.document.history
        self._guarded(lambda: self._report_written(path, export_pdf(what, history, path, paper, date=self._date(),
                                                                    chart=summary_chart)))

    # --- telling the GM ------------------------------------------------------------------------------
    def _guarded(self, run: Callable[[], object]) -> None:
        try:
            run()
        except RulesError as problem:
            QMessageBox.warning(self._window, _("Cannot print"), as_written(str(problem)))

    def _report_printed(self, pages: int) -> None:
        self._status(ngettext("Sent {count} page to the printer.", "Sent {count} pages to the printer.", pages)
                     .format(count=pages))

    def _report_written(self, path: Path, pages: int) -> None:
        self._status(ngettext("Wrote {path} ({count} page).", "Wrote {path} ({count} pages).", pages)
                     .format(path=path, count=pages))

    def _status(self, message: str) -> None:
        self._window.statusBar().showMessage(message, STATUS_MS)
