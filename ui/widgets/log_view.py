"""The combat log panel: searchable, copyable, scrolled to the newest line."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QLineEdit, QListView, QPushButton, QVBoxLayout, QWidget

from app.i18n import _
from ui.models.log_model import LogModel


class LogView(QWidget):
    """The log list with a search field and copy buttons."""

    def __init__(self, model: LogModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._proxy = QSortFilterProxyModel(self)
        self._proxy.setSourceModel(model)
        self._proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.search = QLineEdit(placeholderText=_("Search the log…"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._proxy.setFilterFixedString)
        self.list = QListView()
        self.list.setModel(self._proxy)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setUniformItemSizes(True)
        self.list.setWordWrap(False)
        copy_all = QPushButton(_("Copy all"))
        copy_all.clicked.connect(self.copy_all)
        self._layout(copy_all)
        QShortcut(QKeySequence.StandardKey.Copy, self.list, self.copy_selection,
                  context=Qt.ShortcutContext.WidgetShortcut)
        model.rowsInserted.connect(self._follow)
        model.modelReset.connect(self._follow)

    def _layout(self, copy_all: QPushButton) -> None:
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(copy_all)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.list, 1)

    def _follow(self) -> None:
        if not self.search.text():
            self.list.scrollToBottom()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._follow()  # a loaded fight opens at its newest line

    def copy_selection(self) -> None:
        """Selected rows (in log order) to the clipboard."""
        rows = sorted(self._proxy.mapToSource(index).row() for index in self.list.selectionModel().selectedRows())
        if rows:
            QGuiApplication.clipboard().setText(self._model.plain_text(rows))

    def copy_all(self) -> None:
        """The whole log to the clipboard."""
        QGuiApplication.clipboard().setText(self._model.plain_text())
