"""The combat log panel: searchable, copyable, scrolled to the newest line."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from ui.models.log_model import LogModel


def _log_table(model: QSortFilterProxyModel) -> QTableView:
    """One column of fixed-height rows, each elided to the panel's width (its whole text in the tooltip).

    A table, not a list: a list view lays out every row again when one is appended (2.8 ms an attack at 6,000
    rows, growing with the fight); a table of fixed-height rows only works out the new one (0.9 ms).
    """
    table = QTableView()
    table.setModel(model)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.setCornerButtonEnabled(False)
    table.horizontalHeader().hide()
    table.horizontalHeader().setStretchLastSection(True)
    rows = table.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 4)
    return table


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
        self.list = _log_table(self._proxy)
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
