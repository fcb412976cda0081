"""The welcome page: a new encounter per game, recent files, and a sample encounter per game."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from app.samples import sample_path, sample_title
from app.storage import game_of_file
from rules.systems import system_ids, system_title
from ui.theme import make_heading

PathRole = Qt.ItemDataRole.UserRole + 1


def recent_label(path: Path) -> str:
    """A recent file as its lists show it: its name, its game (read from the file's first bytes), its folder."""
    return f"{path.stem}  —  {game_of_file(path)}  —  {path.parent}"


class WelcomePage(QScrollArea):
    """What the GM sees before a fight is open."""

    new_requested = Signal(str)  # system id
    open_requested = Signal(object)  # Path
    sample_requested = Signal(str)  # system id: a shipped sample, opened as a sample (never by its folder's name)
    browse_requested = Signal()
    continue_requested = Signal()

    def __init__(self, recent_files: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(32, 24, 32, 24)
        title = QLabel(_("Bojovka — combat tracker"))
        make_heading(title)
        layout.addWidget(title)
        layout.addWidget(QLabel(_("Start a new encounter, continue a saved one, or try a sample fight.")))
        self.continue_button = QPushButton()
        self.continue_button.setVisible(False)
        self.continue_button.clicked.connect(self.continue_requested)
        layout.addWidget(self.continue_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self._new_box())
        recent = [(recent_label(Path(p)), str(Path(p)), Path(p)) for p in recent_files]
        self.recent = self._file_list(_("Recent encounters"), recent, _("No recent encounters yet."), layout)
        self.recent.itemActivated.connect(lambda item: self.open_requested.emit(item.data(PathRole)))
        shipped = [s for s in system_ids() if sample_path(s).is_file()]
        samples = [(f"{sample_title(s)}  —  {_(system_title(s))}", str(sample_path(s)), s) for s in shipped]
        self.samples = self._file_list(_("Sample encounters"), samples, _("No samples found."), layout)
        self.samples.itemActivated.connect(lambda item: self.sample_requested.emit(item.data(PathRole)))
        open_button = QPushButton(_("Open an encounter file…"))
        open_button.clicked.connect(self.browse_requested)
        layout.addWidget(open_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        self.setWidget(page)

    def _new_box(self) -> QGroupBox:
        box = QGroupBox(_("New encounter"))
        grid = QGridLayout(box)
        for number, system_id in enumerate(system_ids()):  # the titles, without importing every game
            button = QPushButton(_(system_title(system_id)))
            button.setObjectName(f"new_{system_id}")
            button.clicked.connect(lambda _checked=False, sid=system_id: self.new_requested.emit(sid))
            grid.addWidget(button, number // 2, number % 2)
        return box

    def offer_continue(self, name: str | None) -> None:
        """Show "Continue: <fight>" when a fight is open behind the welcome page."""
        self.continue_button.setVisible(name is not None)
        if name is not None:
            self.continue_button.setText(_("Continue: {name}").format(name=name))

    def _file_list(self, title: str, paths: Sequence[tuple[str, str, object]], empty: str,
                   layout: QVBoxLayout) -> QListWidget:
        """A list of (label, tooltip, what activating it opens): a file's path, or a sample's game id."""
        box = QGroupBox(title)
        inner = QVBoxLayout(box)
        files = QListWidget()
        for label, tip, target in paths:
            item = QListWidgetItem(label)
            item.setData(PathRole, target)
            item.setToolTip(tip)
            files.addItem(item)
        if not paths:
            inner.addWidget(QLabel(empty))
        files.setVisible(bool(paths))
        files.setMaximumHeight(max(60, min(200, 26 * len(paths) + 8)))
        inner.addWidget(files)
        layout.addWidget(box)
        return files
