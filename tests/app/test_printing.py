"""The printed summary and prep sheet: page breaks, contents, the PDF, and ``bojovka --print-summary``.

The PDFs are read back with poppler's ``pdftotext``/``pdfinfo`` (``make print-deps`` installs them, with the
DejaVu fonts that make the page count the same everywhere); without them those tests skip and say so.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QSizeF
from PySide6.QtGui import QColor, QFontDatabase, QImage, QTextBlock, QTextDocument, QTextTable
from PySide6.QtWidgets import QApplication

from app import print_parts, printing
from app.main import main
from app.print_jobs import Printout, export_pdf, print_file
from app.printing import Page, default_paper, document_font, paginate, paper_from_setting, pdf_bytes
from app.storage import StorageError, save_encounter
from app.summary import chance_text, fight_length, summary_document, summary_documents
from app.track_drawing import OBJECT_TYPE, PREP_BOX, SUMMARY_BOX, Drawing, blank_drawing, summary_drawing
from rules.history import History
from rules.report import TrackReading, summarize
from rules.systems.sr3 import Sr3Attack
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_documents import long_fight
from tests.rules.test_report import chance_spent, three_round_fight
from tests.rules.test_sr3_scripted_fight import chains

ROOT = Path(__file__).resolve().parents[2]
#: The scripted three-round SR3 fight's summary on A4 in DejaVu Sans 9 pt. Page 1: the title, the table of
#: eight combatants, the notable moments and the log's first groups; pages 2–4: the rest of its 136 lines in
#: 16 round/pass groups (no row split, no heading left at a page's foot). Counted from the rendered PDF
#: (tests/app/test_printing.py renders it; /work/brief/shots/5c-summary-sr3-*.png show the pages).
SUMMARY_PAGES = 4
#: The same fight's prep sheet: eight rows of stats and two blank 10-box monitors fit one A4 page.
PREP_PAGES = 1


def poppler(tool: str) -> str:
    """The path of a poppler tool, or skip the test with the reason."""
    found = shutil.which(tool)
    if found is None:
        pytest.skip(f"{tool} (Debian's poppler-utils) is not installed: run `make print-deps` as root")
    return found


def need_dejavu(qapp: QApplication) -> None:
    if "DejaVu Sans" not in QFontDatabase.families():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is not installed: the page count depends on the font")


def pdf_text(path: Path) -> str:
    return subprocess.run([poppler("pdftotext"), "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def pdf_info(path: Path) -> dict[str, str]:
    output = subprocess.run([poppler("pdfinfo"), str(path)], capture_output=True, text=True, check=True).stdout
    return {key.strip(): value.strip() for key, value in (line.split(":", 1) for line in output.splitlines()
                                                          if ":" in line)}


def saved_fight(folder: Path, history: History | None = None) -> Path:
    path = folder / "fight.bojovka"
    save_encounter(history or three_round_fight(), path)
    return path


# --- the command line ------------------------------------------------------------------------------


def test_print_summary_writes_the_pdf_with_no_display(tmp_path: Path, bojovka_home: Path, qapp: QApplication) -> None:
    need_dejavu(qapp)
    source, target = saved_fight(tmp_path), tmp_path / "summary.pdf"
    environment = {key: value for key, value in os.environ.items() if key != "QT_QPA_PLATFORM"}
    environment.update(BOJOVKA_HOME=str(bojovka_home), DISPLAY="", WAYLAND_DISPLAY="")
    run = subprocess.run([sys.executable, "-m", "app.main", "--print-summary", str(source), str(target), "--paper",
                          "a4", "--language", "en"], cwd=ROOT, env=environment, capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert f"Wrote {target} ({SUMMARY_PAGES} pages)." in run.stdout
    text = pdf_text(target)
    for name in ("Mike", "Dave", "Sharon", "Richie", "Camilla", "Ganger 1", "Ganger 2", "Ganger 3"):
        assert name in text
    for final in ("Physical 12/10", "Dying", "Physical 6/10", "Physical 3/10", "Unhurt"):
        assert final in text
    info = pdf_info(target)
    assert info["Pages"] == str(SUMMARY_PAGES)
    assert info["Page size"].startswith("595") and "A4" in info["Page size"]
    assert "Bojovka — Seed example" in text and f"page {SUMMARY_PAGES} of {SUMMARY_PAGES}" in text


def test_print_prep_sheet_lists_everyone_with_blank_tracks(tmp_path: Path, qapp: QApplication) -> None:
    need_dejavu(qapp)
    source, target = saved_fight(tmp_path), tmp_path / "prep.pdf"
    assert main(["--print-prep-sheet", str(source), str(target), "--paper", "letter"]) == 0
    text = pdf_text(target)
    assert all(name in text for name in ("Mike", "Camilla", "Ganger 3"))
    assert text.count("Physical (10)") == 8 and text.count("Stun (10)") == 8
    assert "Init 1" in text and "Pools: combat 6" in text and "Initiative: 36 + 1d6" in text
    assert "Now: Physical 12/10 · Dying" in text  # Ganger 2 as he stands
    info = pdf_info(target)
    assert info["Pages"] == str(PREP_PAGES) and info["Page size"].startswith("612 x 792")


@pytest.mark.parametrize("content", [b"", b"not json", b'{"schema_version": 99}'])
def test_a_bad_file_gets_a_message_and_exit_code_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     qapp: QApplication, content: bytes) -> None:
    source, target = tmp_path / "bad.bojovka", tmp_path / "out.pdf"
    source.write_bytes(content)
    assert main(["--print-summary", str(source), str(target)]) == 2
    error = capsys.readouterr().err
    assert "bad.bojovka" in error and "Traceback" not in error
    assert not target.exists()


def test_an_unwritable_target_gets_a_message_and_exit_code_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             qapp: QApplication) -> None:
    source = saved_fight(tmp_path)
    assert main(["--print-summary", str(source), str(tmp_path / "missing" / "out.pdf")]) == 2
    assert "out.pdf" in capsys.readouterr().err


# --- page breaks ------------------------------------------------------------------------------------


def varied_table(rows: int = 40) -> QTextDocument:
    """A heading, a paragraph and a table whose rows wrap to 1–7 lines: Qt's pagination splits some of them."""
    document = QTextDocument()
    document.setDefaultFont(document_font())
    body = "".join(f"<tr><td>Row {i}</td><td>{'line<br>' * (i % 7)}end {i}</td></tr>" for i in range(rows))
    document.setHtml(f"<h1>Title</h1><p>{'words ' * 200}</p><h2>Table</h2>"
                     f"<table border=1 width='100%'><thead><tr><th>A</th><th>B</th></tr></thead>{body}</table>")
    document.setTextWidth(500)
    return document


def row_extents(document: QTextDocument) -> list[tuple[float, float]]:
    layout = document.documentLayout()
    table = next(frame for frame in document.rootFrame().childFrames() if isinstance(frame, QTextTable))
    extents = []
    for row in range(1, table.rows()):
        cells = [table.cellAt(row, column) for column in range(table.columns())]
        top = min(layout.blockBoundingRect(c.firstCursorPosition().block()).top() for c in cells)
        bottom = max(layout.blockBoundingRect(c.lastCursorPosition().block()).bottom() for c in cells)
        extents.append((top, bottom))
    return extents


def crosses(extent: tuple[float, float], page: Page) -> bool:
    top, bottom = extent
    return top < page.bottom < bottom or top < page.top < bottom


def test_qt_alone_would_split_rows_but_our_pages_never_do(qapp: QApplication) -> None:
    document = varied_table()
    extents = row_extents(document)
    height = 260.0
    pages = paginate(document, height)
    assert len(pages) > 5
    assert not [extent for extent in extents for page in pages if crosses(extent, page)]
    assert all(page.bottom - page.top + (page.header[1] - page.header[0] if page.header else 0) <= height + 0.5
               for page in pages)
    assert pages[0].top == 0 and all(a.bottom >= b.top for a, b in itertools.pairwise(pages))
    assert all(page.header is not None for page in pages[2:])  # pages that go on with the table repeat its header
    qt = varied_table()
    qt.setPageSize(QSizeF(500, height))
    qt_extents = row_extents(qt)
    assert any(int(top // height) != int((bottom - 1) // height) for top, bottom in qt_extents)


def test_a_heading_never_ends_a_page(qapp: QApplication) -> None:
    document = varied_table()
    layout = document.documentLayout()
    # From a heading's top to the top of whatever follows it, no page may end.
    kept = [(layout.blockBoundingRect(block).top(), layout.blockBoundingRect(block.next()).top())
            for block in _blocks(document) if block.blockFormat().headingLevel()]
    assert len(kept) == 2
    for height in (150.0, 200.0, 260.0, 333.0):
        for page in paginate(document, height)[:-1]:
            assert not [(top, below) for top, below in kept if top < page.bottom <= below]


def _blocks(document: QTextDocument) -> list[QTextBlock]:
    block, found = document.begin(), []
    while block.isValid():
        found.append(block)
        block = block.next()
    return found


def test_a_row_taller_than_a_page_is_cut_where_the_page_ends(qapp: QApplication) -> None:
    document = QTextDocument()
    document.setHtml("<table border=1><tr><td>" + "tall<br>" * 80 + "</td></tr></table>")
    document.setTextWidth(300)
    pages = paginate(document, 200)
    total = document.documentLayout().documentSize().height()
    assert len(pages) >= total // 200 and pages[-1].bottom == pytest.approx(total)


# --- the summary's contents ----------------------------------------------------------------------------


def test_summary_reads_like_the_fight(qapp: QApplication) -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(Sr3Attack(ids["Mike"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, chains(1, 1, 1, 1, 1, 1), 4,
                         chains(1)))
    text = summary_document(history).toPlainText()
    for heading in ("Who fought", "Notable moments", "Round by round", "Before the fight"):
        assert heading in text
    assert "Mike attacks Ganger 1 with Ares Predator (9M)." in text and "1.6 %" in text
    assert fight_length(summarize(history)) == "1 round of combat · 1 turn"  # Mike's turn began with the round


def test_out_of_the_fight_says_who_got_back_up_and_who_stayed_down(qapp: QApplication) -> None:
    text = summary_document(chance_spent()).toPlainText()
    assert "Unconscious (Round 1, by Ganger 1); back in the fight (Round 1)" in text  # Kira spent her Chance
    assert text.count("back in the fight") == 1  # Ganger 2 spent none: out, and only that
    assert "Unconscious (Round 1)" in text


def test_chances_are_written_in_the_gms_locale(qapp: QApplication) -> None:
    previous = QLocale()
    try:
        QLocale.setDefault(QLocale("en_GB"))
        assert chance_text(0.25) == "25 %" and chance_text(1 / 64) == "1.6 %"
        assert chance_text(0.0046) == "0.46 % (about 1 in 217)"
        QLocale.setDefault(QLocale("cs_CZ"))
        assert chance_text(1 / 64) == "1,6 %" and chance_text(0.0001) == "0,01 % (about 1 in 10 000)".replace(
            " 000", QLocale().groupSeparator() + "000")
    finally:
        QLocale.setDefault(previous)


def test_the_initiative_chart_goes_in_when_there_is_one(qapp: QApplication) -> None:
    history = three_round_fight()
    image = QImage(800, 300, QImage.Format.Format_RGB32)
    image.fill(QColor("#0072B2"))
    with_chart = summary_document(history, chart_image=image)
    assert "Initiative chart" in with_chart.toPlainText()
    assert isinstance(with_chart.resource(QTextDocument.ResourceType.ImageResource, "chart:initiative"), QImage)
    without = summary_document(history)
    assert "Initiative chart" not in without.toPlainText() and "chart:initiative" not in without.toHtml()


def test_notes_of_the_gm_are_printed(qapp: QApplication) -> None:
    from rules.combatants import EditEncounter

    history = three_round_fight()
    history.do(EditEncounter("notes", "The gangers' van is parked <outside>.\nCall Lone Star?"))
    text = summary_document(history).toPlainText()
    assert "GM notes" in text and "The gangers' van is parked <outside>." in text and "Call Lone Star?" in text


# --- paper and files ---------------------------------------------------------------------------------


def test_paper_follows_the_setting_or_the_systems_measurement() -> None:
    assert default_paper(QLocale("en_US")) == "letter"
    assert default_paper(QLocale("cs_CZ")) == default_paper(QLocale("en_GB")) == "a4"
    assert paper_from_setting("letter") == "letter" and paper_from_setting("a4") == "a4"
    assert paper_from_setting("auto") == default_paper()


def test_export_and_print_file_agree_on_pages(tmp_path: Path, qapp: QApplication) -> None:
    history = three_round_fight()
    source = saved_fight(tmp_path, history)
    direct = export_pdf(Printout.SUMMARY, history, tmp_path / "a.pdf", "a4")
    from_file = print_file(Printout.SUMMARY, source, tmp_path / "b.pdf", "a4")
    data, count = pdf_bytes(summary_document(history), "x", "a4")
    assert direct == from_file == count and data.startswith(b"%PDF")
    assert export_pdf(Printout.PREP_SHEET, history, tmp_path / "c.pdf", "letter") >= 1


# --- condition tracks drawn as vectors ---------------------------------------------------------------


def test_track_placeholders_become_vector_drawings(qapp: QApplication) -> None:
    document = summary_document(three_round_fight())
    assert 'src="track:' not in document.toHtml()  # every placeholder swapped for a drawn object
    objects = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            if fragments.fragment().charFormat().objectType() == OBJECT_TYPE:
                objects.append(fragments.fragment().charFormat())
            fragments += 1
        block = block.next()
    assert len(objects) == 6  # the six combatants hurt at the end, one marked track each


def test_a_drawing_names_what_it_draws() -> None:
    overflow = Drawing(12, 10)  # two boxes past the monitor: drawn crossed after it
    assert Drawing.parse(overflow.key()) == overflow and overflow.shown_boxes == 12
    assert overflow.css_size() == (12 * (SUMMARY_BOX + 2) + 2, SUMMARY_BOX + 4)
    blank = blank_drawing(TrackReading("hp", "Wounds", 5, 24, "points"))
    assert blank is not None and blank.marked == 0 and blank.css_size()[1] == 3 * (PREP_BOX + 2) + 2
    assert blank_drawing(TrackReading("hp", "Wounds", 0, 200, "points")) is None  # a line to write on instead
    assert summary_drawing(TrackReading("hp", "Wounds", 5, 24, "points")).bar
    assert Drawing.parse("chart:initiative") is None


# --- long fights (issue 19) ----------------------------------------------------------------------------------

#: Prints a saved fight's summary on a PDF at ``argv[3]`` dots per inch; the page count on stdout.
QT_LAYOUT_LIMIT = 8_388_607  # device pixels: QTextDocument lays out nothing past this height

PRINT_AT = """
import sys
from pathlib import Path
from PySide6.QtGui import QPdfWriter
from PySide6.QtWidgets import QApplication
application = QApplication([])
from app.printing import page_layout, print_document
from app.storage import load_encounter
from app.summary import summary_documents
writer = QPdfWriter(sys.argv[2])
writer.setResolution(int(sys.argv[3]))
writer.setPageLayout(page_layout("a4"))
print(print_document(summary_documents(load_encounter(Path(sys.argv[1]))), writer, "long"))
"""


def _print_at(source: Path, target: Path, dpi: int, home: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "BOJOVKA_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-c", PRINT_AT, str(source), str(target), str(dpi)], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=280, check=False)


def test_a_summary_taller_than_qt_lays_out_is_printed_whole(tmp_path: Path, bojovka_home: Path,
                                                             qapp: QApplication) -> None:
    """Qt lays no document out past 8,388,607 device pixels: the summary of a 2,000-operation fight is taller than
    that at 9,600 dpi (a 50,000-operation one at a PDF's 300), and printing it crashed the process in
    app.printing._table_cuts. Printed in parts, it comes out whole."""
    need_dejavu(qapp)
    history = long_fight(2_000)
    source, last = saved_fight(tmp_path, history), summarize(history).log[-1]
    dpi = 9_600
    run = _print_at(source, tmp_path / "fine.pdf", dpi, bojovka_home)
    assert run.returncode == 0, run.stderr[-2000:]
    pages = int(run.stdout.split()[-1])
    a4_height_pixels = 297 / 25.4 * dpi
    assert pages * a4_height_pixels > QT_LAYOUT_LIMIT, "the printout must be taller than Qt lays out in one piece"
    assert pdf_info(tmp_path / "fine.pdf")["Pages"] == str(pages)
    text = pdf_text(tmp_path / "fine.pdf")
    assert f"page {pages} of {pages}" in text and last.heading() in text  # the log to its last round
    assert "".join(line.render() for line in last.entries[-1]).split(".")[0] in text.replace("\n", "")


def test_the_parts_of_a_long_summary_print_as_one_document(tmp_path: Path, qapp: QApplication,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    need_dejavu(qapp)
    history = long_fight(600)
    whole, whole_pages = pdf_bytes(summary_document(history), "x", "a4")
    monkeypatch.setattr(print_parts, "PART_LINES", 200)  # more than any one table: the parts end between tables
    documents = summary_documents(history)
    assert len(documents) > 5
    split, split_pages = pdf_bytes(documents, "x", "a4")
    (tmp_path / "whole.pdf").write_bytes(whole)
    (tmp_path / "split.pdf").write_bytes(split)
    assert split_pages == whole_pages
    assert pdf_text(tmp_path / "split.pdf") == pdf_text(tmp_path / "whole.pdf")


def test_a_part_too_tall_to_lay_out_is_refused_with_a_message(qapp: QApplication,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(printing, "SAFE_HEIGHT", 2_000.0)
    with pytest.raises(StorageError, match="too long to lay out"):
        pdf_bytes(summary_documents(three_round_fight()), "x", "a4")


@pytest.mark.soak
@pytest.mark.timeout(1200)
def test_print_summary_of_a_50000_operation_fight(tmp_path: Path, bojovka_home: Path, qapp: QApplication) -> None:
    """The issue's own case: ``--print-summary`` of a 50,000-operation fight segfaulted; it writes the PDF."""
    source, target = saved_fight(tmp_path, long_fight(50_000)), tmp_path / "summary.pdf"
    environment = {**os.environ, "BOJOVKA_HOME": str(bojovka_home), "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run([sys.executable, "-m", "app.main", "--print-summary", str(source), str(target)], cwd=ROOT,
                         env=environment, capture_output=True, text=True, timeout=1100, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    pages = int(pdf_info(target)["Pages"])
    assert pages > 2_000 and f"({pages} pages)" in run.stdout
