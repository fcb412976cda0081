"""The welcome page: a new encounter per game, recent files, and a sample encounter per game."""

from __future__ import annotations

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
from app.samples import SAMPLES, sample_path
from rules.systems import all_systems

PathRole = Qt.ItemDataRole.UserRole + 1


class WelcomePage(QScrollArea):
    """What the GM sees before a fight is open."""

    new_requested = Signal(str)  # system id
    open_requested = Signal(object)  # Path
    browse_requested = Signal()

    def __init__(self, recent_files: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(32, 24, 32, 24)
        title = QLabel(_("Bojovka — combat tracker"))
        title.setProperty("heading", True)
        layout.addWidget(title)
        layout.addWidget(QLabel(_("Start a new encounter, continue a saved one, or try a sample fight.")))
        layout.addWidget(self._new_box())
        self.recent = self._file_list(_("Recent encounters"), [Path(p) for p in recent_files],
                                      _("No recent encounters yet."), layout)
        self.samples = self._file_list(_("Sample encounters"), [sample_path(s) for s in SAMPLES],
                                       _("No samples found."), layout)
        open_button = QPushButton(_("Open an encounter file…"))
        open_button.clicked.connect(self.browse_requested)
        layout.addWidget(open_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        self.setWidget(page)

    def _new_box(self) -> QGroupBox:
        box = QGroupBox(_("New encounter"))
        grid = QGridLayout(box)
        for number, system in enumerate(all_systems().values()):
            button = QPushButton(_(system.title))
            button.setObjectName(f"new_{system.id}")
            button.clicked.connect(lambda _checked=False, sid=system.id: self.new_requested.emit(sid))
            grid.addWidget(button, number // 2, number % 2)
        return box

    def _file_list(self, title: str, paths: list[Path], empty: str, layout: QVBoxLayout) -> QListWidget:
        box = QGroupBox(title)
        inner = QVBoxLayout(box)
        files = QListWidget()
        for path in paths:
            item = QListWidgetItem(f"{path.stem}  —  {path.parent}")
            item.setData(PathRole, path)
            item.setToolTip(str(path))
            files.addItem(item)
        if not paths:
            inner.addWidget(QLabel(empty))
        files.setVisible(bool(paths))
        files.setMaximumHeight(max(60, min(200, 26 * len(paths) + 8)))
        files.itemActivated.connect(lambda item: self.open_requested.emit(item.data(PathRole)))
        inner.addWidget(files)
        layout.addWidget(box)
        return files
