"""File → Print summary…, Print preview…, Export summary as PDF…, Print prep sheet…: the window's printing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewWidget
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMenu
from pytestqt.qtbot import QtBot

from app.print_jobs import Printout
from app.printing import draw_slice
from app.summary import summary_document
from rules.encounter import Encounter
from rules.history import History
from tests.ui.conftest import WindowFactory
from ui.main_window import MainWindow
from ui.printing.dialogs import PDF_FILTERS, Printing

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

PRINT_ACTIONS = {"print_summary": "Ctrl+P", "print_preview": "Ctrl+Shift+P", "export_summary_pdf": "Ctrl+Alt+P",
                 "print_prep_sheet": "Ctrl+Alt+Shift+P"}


@pytest.fixture
def window(open_window: WindowFactory) -> MainWindow:
    return open_window(sample="sr3", seed=5)


def pdf_info(path: Path) -> dict[str, str]:
    tool = shutil.which("pdfinfo")
    if tool is None:
        pytest.skip("pdfinfo (Debian's poppler-utils) is not installed: run `make print-deps` as root")
    output = subprocess.run([tool, str(path)], capture_output=True, text=True, check=True).stdout
    return {key.strip(): value.strip() for key, value in (line.split(":", 1) for line in output.splitlines()
                                                          if ":" in line)}


def paper_setting(window: MainWindow) -> str:
    return window.workspace.settings.paper


def to_file(printer: QPrinter, path: Path) -> QPrinter:
    """The printer as it was set up (paper, margins), printing into a PDF file instead."""
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    return printer


def test_the_print_commands_are_in_the_file_menu_with_shortcuts(window: MainWindow) -> None:
    for name, keys in PRINT_ACTIONS.items():
        action = window.actions_by_name[name]
        assert action.shortcut().toString() == keys
        assert callable(getattr(window.files, f"on_{name}"))
    file_menu = window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu)
    texts = [action.text() for action in file_menu.actions()]
    assert "&Print summary…" in texts and "Print p&rep sheet…" in texts


def test_printing_goes_to_the_printer_on_the_gms_paper(window: MainWindow, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    window.workspace.update_settings(paper="letter")
    target = tmp_path / "printed.pdf"
    set_up = Printing.printer
    monkeypatch.setattr(Printing, "printer", lambda self: to_file(set_up(self), target))
    monkeypatch.setattr(QPrintDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    window.actions_by_name["print_summary"].trigger()
    info = pdf_info(target)
    assert info["Page size"].startswith("612 x 792")
    assert f"Sent {info['Pages']} pages to the printer." in window.statusBar().currentMessage()


def test_a_cancelled_print_dialog_prints_nothing(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    rendered: list[Printout] = []

    def render(self: Printing, what: Printout, printer: QPrinter) -> int:
        rendered.append(what)
        return 1

    monkeypatch.setattr(QPrintDialog, "exec", lambda self: QDialog.DialogCode.Rejected)
    monkeypatch.setattr(Printing, "render", render)
    window.actions_by_name["print_summary"].trigger()
    assert rendered == []


@pytest.mark.parametrize("what", [Printout.SUMMARY, Printout.PREP_SHEET])
def test_the_preview_shows_the_pages(window: MainWindow, qtbot: QtBot, what: Printout) -> None:
    dialog = window.printing.preview(what)
    qtbot.addWidget(dialog)
    dialog.show()
    preview = dialog.findChild(QPrintPreviewWidget)
    assert preview is not None
    qtbot.waitUntil(lambda: preview.pageCount() >= 1)
    dialog.close()


def test_export_writes_the_pdf_on_the_paper_picked_with_the_name(window: MainWindow, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = tmp_path / "ambush"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args: (str(chosen), PDF_FILTERS["letter"]))
    window.actions_by_name["export_summary_pdf"].trigger()
    target = tmp_path / "ambush.pdf"
    info = pdf_info(target)
    assert f"Wrote {target} ({info['Pages']} pages)." in window.statusBar().currentMessage()
    assert info["Page size"].startswith("612 x 792")
    assert paper_setting(window) == "letter"  # remembered for next time
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args: (str(target), PDF_FILTERS["a4"]))
    window.actions_by_name["export_summary_pdf"].trigger()
    assert pdf_info(target)["Page size"].startswith("595")
    assert paper_setting(window) == "a4"


def test_export_cancelled_writes_nothing(window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args: ("", ""))
    window.actions_by_name["export_summary_pdf"].trigger()
    assert list(tmp_path.glob("*.pdf")) == []


def test_an_export_the_disk_refuses_gets_a_message(window: MainWindow, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    warnings: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args: (str(tmp_path / "missing" / "x.pdf"), PDF_FILTERS["a4"]))
    monkeypatch.setattr("ui.printing.dialogs.QMessageBox.warning", lambda parent, title, text: warnings.append(text))
    window.actions_by_name["export_summary_pdf"].trigger()
    assert len(warnings) == 1 and "x.pdf" in warnings[0]


def test_render_to_a_pdf_printer(window: MainWindow, tmp_path: Path) -> None:
    target = tmp_path / "prep.pdf"
    pages = window.printing.render(Printout.PREP_SHEET, to_file(window.printing.printer(), target))
    assert pages == 1 and target.stat().st_size > 1000


def test_the_dark_theme_never_reaches_the_paper(qapp: QApplication) -> None:
    from ui.theme import dark_palette

    document = summary_document(History(Encounter("sr3", "Dark night")))
    document.setTextWidth(400)
    previous = QApplication.palette()
    QApplication.setPalette(dark_palette())  # light grey text: unreadable on paper
    try:
        image = QImage(400, 120, QImage.Format.Format_RGB32)
        image.fill(QColor("#ffffff"))
        painter = QPainter(image)
        draw_slice(painter, document, 0, 120, 0, 400)
        painter.end()
    finally:
        QApplication.setPalette(previous)
    darkest = min(QColor(image.pixel(x, y)).lightness() for x in range(0, 400, 2) for y in range(0, 120, 2))
    assert darkest < 60  # the title is printed black
