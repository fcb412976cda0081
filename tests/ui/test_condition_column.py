"""The condition column in every game: numbers in the game's own terms beside the drawing, and an icon and a
word (never colour alone) for whoever is unconscious, dying or dead; the player view shows the same states
without an NPC's numbers.

Every game comes from the registry and plays its own sample fight (``system.sample()``): a sixth game is
checked the day it is registered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QImage, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.i18n import install_language
from rules.combatants import ApplyHarm
from rules.encounter import STATUS_LABELS, Combatant, Encounter, Side, Status
from rules.systems import all_systems
from rules.systems.base import RuleSystem
from ui.models.initiative_model import Column, InitiativeModel, Role
from ui.models.order_model import order_rows
from ui.widgets import condition_track
from ui.widgets.condition_track import MIN_SEGMENT, compact_boxes
from ui.widgets.initiative_table import InitiativeDelegate, InitiativeTable, condition_layout
from ui.widgets.player_view import PlayerView, round_text
from ui.widgets.status_icons import ICON_SIZE, paint_status_icon, status_icon

pytestmark = [pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)"),
              pytest.mark.usefixtures("qapp")]  # icons are pixmaps: they need the application

SYSTEMS = list(all_systems().values())
GAMES = pytest.mark.parametrize("system", SYSTEMS, ids=[system.id for system in SYSTEMS])
OUT = (Status.UNCONSCIOUS, Status.DYING, Status.DEAD)
FRACTION = re.compile(r"(−?\d+)/(\d+)")


def _sample(system: RuleSystem) -> EncounterDocument:
    return EncounterDocument(system.sample())


def _cell(model: InitiativeModel, combatant_id: str, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
    return model.index(model.row_of(combatant_id), Column.CONDITION).data(role)


def _unhurt(document: EncounterDocument) -> Combatant:
    """A combatant of the sample with no track marked (every sample has one)."""
    state, system = document.state, document.system
    return next(c for c in state.combatants.values()
                if not any(c.boxes(t.key) for t in system.tracks(c, state)))


def _fractions(text: str) -> set[tuple[int, int]]:
    return {(int(a.replace("−", "-")), int(b)) for a, b in FRACTION.findall(text)}


# --- numbers in the game's own terms ------------------------------------------------------------------


@GAMES
def test_the_cell_reads_each_damaged_track_in_numbers(system: RuleSystem) -> None:
    """One box on any track of an unhurt combatant: the cell says so as n/size, n the boxes marked (monitors,
    wound classes, stun) or the points left (hit points), and says nothing once healed again."""
    document = _sample(system)
    model = InitiativeModel(document)
    combatant = _unhurt(document)
    unhurt_text = _cell(model, combatant.id)
    for track in system.tracks(combatant, document.state):
        document.apply(ApplyHarm(combatant.id, track.key, 1))
        hurt = document.state.combatant(combatant.id)
        marked = hurt.boxes(track.key)
        text = _cell(model, combatant.id)
        summary = system.condition_summary(hurt, document.state)
        status = system.status(hurt, document.state)
        assert text == (summary if status is Status.ACTIVE else f"{STATUS_LABELS[status]} · {summary}")
        assert text != unhurt_text
        assert _fractions(text) & {(marked, track.size), (track.size - marked, track.size)}, (track.key, text)
        document.undo_stack.undo()
        assert _cell(model, combatant.id) == unhurt_text


@GAMES
def test_the_samples_damaged_combatants_read_as_their_tracks(system: RuleSystem) -> None:
    """Every combatant the sample fight already hurt: each marked track shows as a fraction of its size."""
    document = _sample(system)
    model = InitiativeModel(document)
    state = document.state
    for combatant in state.combatants.values():
        text = _cell(model, combatant.id)
        marked = [t for t in system.tracks(combatant, state) if combatant.boxes(t.key)]
        if not marked:
            continue
        sizes = {size for _left, size in _fractions(text)}
        assert {t.size for t in marked} <= sizes, (combatant.name, text)


def test_a_game_that_only_declares_its_tracks_gets_them_read_by_default(toy_game: RuleSystem) -> None:
    """The default hook: each marked track as ``name marked/size``, "Unhurt" when none is."""
    document = _sample(toy_game)
    model = InitiativeModel(document)
    combatant = _unhurt(document)
    assert _cell(model, combatant.id) == "Unhurt"
    track = toy_game.tracks(combatant, document.state)[0]
    document.apply(ApplyHarm(combatant.id, track.key, 2))
    assert _cell(model, combatant.id) == f"{track.short_name()} 2/{track.size}"


# --- out of the fight: icon and word ------------------------------------------------------------------


@pytest.fixture
def knocked_out(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``knock(system, combatant_id, status)``: the game reports that status for that combatant (every game,
    every status, whatever its rules can reach)."""

    def knock(system: RuleSystem, combatant_id: str, status: Status) -> None:
        real = type(system).status

        def status_of(combatant: Combatant, encounter: Encounter) -> Status:
            return status if combatant.id == combatant_id else real(system, combatant, encounter)

        monkeypatch.setattr(system, "status", status_of)

    yield knock


@GAMES
@pytest.mark.parametrize("status", OUT, ids=[s.value for s in OUT])
def test_out_of_the_fight_shows_an_icon_and_a_word(system: RuleSystem, status: Status, knocked_out: Any) -> None:
    document = _sample(system)
    combatant = next(iter(document.state.combatants.values()))
    knocked_out(system, combatant.id, status)
    model = InitiativeModel(document)
    word = STATUS_LABELS[status]
    text = _cell(model, combatant.id)
    assert text.startswith(word)  # first: a narrow cell elides the numbers, never the word
    assert word in _cell(model, combatant.id, Qt.ItemDataRole.AccessibleTextRole)
    assert word in _cell(model, combatant.id, Qt.ItemDataRole.ToolTipRole)
    name_tip = model.index(model.row_of(combatant.id), Column.NAME).data(Qt.ItemDataRole.ToolTipRole)
    assert name_tip == word
    icon = _cell(model, combatant.id, Qt.ItemDataRole.DecorationRole)
    assert isinstance(icon, QIcon) and not icon.isNull()
    assert _cell(model, combatant.id, Qt.ItemDataRole.ForegroundRole) is None  # the word is not greyed out
    dimmed = model.index(model.row_of(combatant.id), Column.NAME).data(Qt.ItemDataRole.ForegroundRole)
    assert isinstance(dimmed, QBrush)  # the rest of the row is


@GAMES
def test_active_combatants_have_no_icon_and_no_status_word(system: RuleSystem) -> None:
    document = _sample(system)
    model = InitiativeModel(document)
    for combatant in document.state.combatants.values():
        if system.status(combatant, document.state) is Status.ACTIVE:
            assert _cell(model, combatant.id, Qt.ItemDataRole.DecorationRole) is None
            assert not any(_cell(model, combatant.id).startswith(STATUS_LABELS[s]) for s in OUT)


@GAMES
def test_a_fall_by_the_games_own_rules_shows_its_word(system: RuleSystem) -> None:
    """Fill a combatant's tracks one after another: whenever the game says it is out, the cell says which."""
    document = _sample(system)
    model = InitiativeModel(document)
    combatant = _unhurt(document)
    for track in system.tracks(combatant, document.state):
        document.apply(ApplyHarm(combatant.id, track.key, track.size))
        status = system.status(document.state.combatant(combatant.id), document.state)
        text = _cell(model, combatant.id)
        if status is Status.ACTIVE:
            assert _cell(model, combatant.id, Qt.ItemDataRole.DecorationRole) is None
        else:
            assert text.startswith(STATUS_LABELS[status])
            assert isinstance(_cell(model, combatant.id, Qt.ItemDataRole.DecorationRole), QIcon)


@GAMES
def test_the_table_draws_the_icon_beside_the_word(qtbot: QtBot, system: RuleSystem, knocked_out: Any) -> None:
    document = _sample(system)
    combatant = next(iter(document.state.combatants.values()))
    knocked_out(system, combatant.id, Status.DEAD)
    model = InitiativeModel(document)
    table = InitiativeTable(model)
    qtbot.addWidget(table)
    table.resize(1000, 400)
    table.show()
    qtbot.waitExposed(table)
    index = model.index(model.row_of(combatant.id), Column.CONDITION)
    rect = table.visualRect(index)
    layout = condition_layout(rect, index.data(Role.TRACKS) or [], has_icon=True)
    assert layout.icon is not None and layout.icon.right() < layout.text.left()
    image = table.viewport().grab().toImage()
    ink = table.palette().color(QPalette.ColorRole.Text)
    assert _pixels_like(image, layout.icon, ink) > 10  # the skull is drawn in the text colour


def _pixels_like(image: QImage, rect: QRect, colour: QColor, tolerance: int = 40) -> int:
    count = 0
    for x in range(rect.left(), rect.right() + 1):
        for y in range(rect.top(), rect.bottom() + 1):
            pixel = image.pixelColor(x, y)
            if abs(pixel.red() - colour.red()) + abs(pixel.green() - colour.green()) + abs(
                    pixel.blue() - colour.blue()) <= tolerance:
                count += 1
    return count


# --- the icons ------------------------------------------------------------------------------------------


def _drawn(status: Status, ink: QColor, background: QColor) -> QImage:
    image = QImage(QSize(ICON_SIZE * 2, ICON_SIZE * 2), QImage.Format.Format_ARGB32)
    image.fill(background)
    painter = QPainter(image)
    paint_status_icon(painter, QRectF(0, 0, ICON_SIZE * 2, ICON_SIZE * 2), status, ink)
    painter.end()
    return image


@pytest.mark.parametrize(("ink", "background"), [("#000000", "#ffffff"), ("#f2f2f2", "#1c1c1c")],
                         ids=["light", "dark"])
def test_each_status_has_its_own_shape_in_both_themes(qtbot: QtBot, ink: str, background: str) -> None:
    del qtbot  # a QApplication for the painting
    images = {status: _drawn(status, QColor(ink), QColor(background)) for status in OUT}
    for status, image in images.items():
        assert _pixels_like(image, image.rect(), QColor(ink)) > 20, status  # drawn in the theme's text colour
    assert len({bytes(image.constBits()) for image in images.values()}) == len(OUT)  # three different shapes
    assert _drawn(Status.ACTIVE, QColor(ink), QColor(background)) == _blank(QColor(background))
    assert status_icon(Status.ACTIVE) is None


def _blank(background: QColor) -> QImage:
    image = QImage(QSize(ICON_SIZE * 2, ICON_SIZE * 2), QImage.Format.Format_ARGB32)
    image.fill(background)
    return image


# --- nothing clips -----------------------------------------------------------------------------------


def test_long_tracks_draw_as_a_bar_not_as_slivers() -> None:
    """30 hit points in a table cell: a bar filled in proportion; ten monitor boxes stay boxes."""
    cell = QRectF(0, 0, 68, 10)
    assert compact_boxes(cell, 30, 0) is None
    boxes = compact_boxes(cell, 10, 0)
    assert boxes is not None and len(boxes) == 10
    with_overflow = compact_boxes(cell, 10, 5)  # SR3 overflow: only as many extra boxes as stay countable
    assert with_overflow is not None and 10 <= len(with_overflow) < 15
    assert min(box.width() for box in with_overflow) >= MIN_SEGMENT


def test_a_track_of_thousands_is_a_bar_worked_out_without_laying_out_its_boxes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Souboj's hit points go up to 9,999: each table cell laid out 9,999 boxes thirteen times before choosing a bar,
    a third of a second per cell and seconds per Next (issue 19)."""
    laid_out: list[int] = []
    real = condition_track.box_rects

    def counted(*args: Any, **kwargs: Any) -> list[QRectF]:
        laid_out.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(condition_track, "box_rects", counted)
    assert compact_boxes(QRectF(0, 0, 68, 10), 9_999, 10**9) is None
    assert laid_out == []


@pytest.fixture(params=["en", "cs", "pl", "ru"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    install_language(request.param)
    yield request.param
    install_language("en")


@GAMES
def test_the_samples_conditions_fit_their_column_in_every_language(qtbot: QtBot, system: RuleSystem,
                                                                   language: str) -> None:
    """At the table's default width the sample fights' condition cells are drawn whole (no elision)."""
    model = InitiativeModel(_sample(system))
    table = InitiativeTable(model)
    qtbot.addWidget(table)
    delegate = table.itemDelegate()
    assert isinstance(delegate, InitiativeDelegate)
    for row in range(model.rowCount()):
        index = model.index(row, Column.CONDITION)
        option = QStyleOptionViewItem()
        option.initFrom(table)
        option.rect = QRect(0, 0, table.columnWidth(Column.CONDITION), table.rowHeight(row) or 30)
        assert not delegate.elided(option, index), f"{language}: {index.data()}"


@GAMES
def test_an_elided_cell_gives_its_whole_text_in_the_tooltip(qtbot: QtBot, system: RuleSystem,
                                                           knocked_out: Any) -> None:
    document = _sample(system)
    combatant = next(iter(document.state.combatants.values()))
    knocked_out(system, combatant.id, Status.UNCONSCIOUS)
    model = InitiativeModel(document)
    table = InitiativeTable(model)
    qtbot.addWidget(table)
    delegate = table.itemDelegate()
    assert isinstance(delegate, InitiativeDelegate)
    index = model.index(model.row_of(combatant.id), Column.CONDITION)
    option = QStyleOptionViewItem()
    option.initFrom(table)
    option.rect = QRect(0, 0, 90, 30)
    assert delegate.elided(option, index)
    option.rect = QRect(0, 0, 2000, 30)
    assert not delegate.elided(option, index)


@GAMES
def test_painted_cells_are_reused_until_their_row_changes(qtbot: QtBot, system: RuleSystem,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Each change re-reads the order and Qt repaints every visible cell: the delegate paints a cell again only
    when its row changed (the damaged row here), and the repainted table shows the change."""
    document = _sample(system)
    model = InitiativeModel(document)
    table = InitiativeTable(model)
    qtbot.addWidget(table)
    table.resize(1000, 600)
    table.show()
    painted: list[tuple[int, int]] = []
    real = InitiativeDelegate._paint_cell

    def counted(this: InitiativeDelegate, painter: QPainter, option: QStyleOptionViewItem, index: Any) -> None:
        painted.append((index.row(), index.column()))
        real(this, painter, option, index)

    monkeypatch.setattr(InitiativeDelegate, "_paint_cell", counted)
    first = table.viewport().grab().toImage()
    assert painted  # the first paint draws every visible cell
    painted.clear()
    assert table.viewport().grab().toImage() == first and painted == []  # nothing changed: nothing redrawn
    target = _unhurt(document)
    document.apply(ApplyHarm(target.id, system.tracks(target, document.state)[0].key, 1))
    after = table.viewport().grab().toImage()
    assert painted and {row for row, _column in painted} == {model.row_of(target.id)}
    assert after != first


# --- the player view ----------------------------------------------------------------------------------


def _numbers(texts: list[str], names: list[str]) -> set[str]:
    pattern = re.compile("|".join(re.escape(name) for name in sorted(names, key=len, reverse=True)))
    return {number for text in texts for number in re.findall(r"\d+", pattern.sub("", text))}


@GAMES
@pytest.mark.parametrize("status", OUT, ids=[s.value for s in OUT])
def test_player_view_shows_an_npcs_state_but_not_its_numbers(qtbot: QtBot, system: RuleSystem, status: Status,
                                                             knocked_out: Any) -> None:
    document = _sample(system)
    state = document.state
    npc = next(c for c in state.combatants.values() if c.side is Side.OPPONENT)
    track = system.tracks(npc, state)[0]
    document.apply(ApplyHarm(npc.id, track.key, 1))  # numbers the players must not see
    knocked_out(system, npc.id, status)
    document.replaced.emit()  # the status changed behind the document's back in this test only
    view = PlayerView(document)
    qtbot.addWidget(view)
    view.resize(1280, 720)
    view.show()
    word = STATUS_LABELS[status]
    assert [(entry.name, entry.status, entry.state) for entry in view.fallen.entries()
            if entry.name == npc.name] == [(npc.name, word, status)]
    assert view.fallen_caption.isVisibleTo(view)
    assert word in view.shown_texts()
    names = [c.name for c in document.state.combatants.values()]
    allowed = set(re.findall(r"\d+", round_text(document.state, system)))
    assert _numbers(view.shown_texts(), names) <= allowed


@GAMES
def test_player_view_marks_fallen_player_characters_with_icon_and_word(qtbot: QtBot, system: RuleSystem,
                                                                       knocked_out: Any) -> None:
    document = _sample(system)
    pc = next(c for c in document.state.combatants.values() if c.side is Side.PLAYER)
    knocked_out(system, pc.id, Status.DYING)
    document.replaced.emit()
    view = PlayerView(document)
    qtbot.addWidget(view)
    entry = next(entry for entry in view.party.entries() if entry.name == pc.name)
    assert (entry.status, entry.state) == (STATUS_LABELS[Status.DYING], Status.DYING)
    assert pc.name not in [fallen.name for fallen in view.fallen.entries()]  # the party shows them already


@GAMES
def test_the_order_writes_the_status_word_after_the_name(system: RuleSystem, knocked_out: Any) -> None:
    """The slot acting now stays in the order whatever happens to its actor: its row says who is out."""
    document = _sample(system)
    current = order_rows(document.state, system)[0]
    assert current.is_current
    first = document.state.combatant(current.key[1][0])
    knocked_out(system, first.id, Status.UNCONSCIOUS)
    row = order_rows(document.state, system)[0]
    assert f"{first.name} · {STATUS_LABELS[Status.UNCONSCIOUS]}" in row.display
    assert row.name == current.name  # the plain names stay for the "now acting" heading's lookups
    assert row.status == Status.UNCONSCIOUS.value


@GAMES
def test_the_now_acting_heading_keeps_to_the_names(qtbot: QtBot, system: RuleSystem, knocked_out: Any) -> None:
    """The huge line is one line of names; the order row under it carries the status word and the icon of the
    worst off of its members."""
    document = _sample(system)
    current = order_rows(document.state, system)[0]
    last = current.key[1][-1]
    knocked_out(system, last, Status.DEAD)
    document.replaced.emit()
    view = PlayerView(document)
    qtbot.addWidget(view)
    assert view.current_label.text() == current.title
    assert STATUS_LABELS[Status.DEAD] not in view.current_label.text()
    assert view.model.row(0).status == Status.DEAD.value
    assert STATUS_LABELS[Status.DEAD] in view.model.index(0, 0).data()


# --- the model stays a good model ---------------------------------------------------------------------


@GAMES
def test_initiative_model_passes_the_model_tester(qtmodeltester: Any, system: RuleSystem, knocked_out: Any) -> None:
    document = _sample(system)
    combatant = next(iter(document.state.combatants.values()))
    knocked_out(system, combatant.id, Status.DYING)
    model = InitiativeModel(document)
    qtmodeltester.check(model, force_py=True)
    unhurt = _unhurt(document)
    track = system.tracks(unhurt, document.state)[0]
    document.apply(ApplyHarm(unhurt.id, track.key, track.size))
    document.undo_stack.undo()
    assert QApplication.instance() is not None
