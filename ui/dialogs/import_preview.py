"""What importing a roster/bestiary file will do, shown before anything is written: the entries it adds, the
ones it updates (with what changes in each) and the ones already there; OK imports, Cancel leaves the library
as it was."""

from __future__ import annotations

from enum import IntEnum

from PySide6.QtCore import QSize
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.i18n import N_, _, ngettext
from app.library import KIND_LABELS, LibraryEntry
from app.library_merge import MergeReport
from rules.systems import all_systems
from ui.widgets.layout import size_window

SIZE = (680, 460)


class PreviewColumn(IntEnum):
    """Columns of the preview."""

    NAME = 0
    KIND = 1
    CAMPAIGN = 2
    GAME = 3
    CHANGES = 4


_HEADERS = {PreviewColumn.NAME: N_("Name"), PreviewColumn.KIND: N_("Kind"), PreviewColumn.CAMPAIGN: N_("Campaign"),
            PreviewColumn.GAME: N_("Game"), PreviewColumn.CHANGES: N_("What changes")}


def import_summary(report: MergeReport, file: str) -> str:
    """One sentence for the status bar: "Imported party.json: 2 entries added, 1 entry updated, 5 unchanged."."""
    counts = ", ".join((
        ngettext("{count} entry added", "{count} entries added", len(report.added)).format(count=len(report.added)),
        ngettext("{count} entry updated", "{count} entries updated", len(report.updated)).format(
            count=len(report.updated)),
        ngettext("{count} entry unchanged", "{count} entries unchanged", len(report.unchanged)).format(
            count=len(report.unchanged))))
    return _("Imported {file}: {counts}.").format(file=file, counts=counts)


def nothing_to_import(report: MergeReport, file: str) -> str:
    """The status bar's sentence when every entry of the file is already in the library as it is."""
    count = len(report.unchanged)
    return ngettext("Nothing to import: the {count} entry of {file} is already in the roster and bestiary.",
                    "Nothing to import: all {count} entries of {file} are already in the roster and bestiary.",
                    count).format(count=count, file=file)


def _game(entry: LibraryEntry) -> str:
    system = all_systems().get(entry.system_id)
    return _(system.title) if system is not None else entry.system_id


class ImportPreviewDialog(QDialog):
    """The merge a file would make, grouped: added, updated (what changes), unchanged (collapsed)."""

    def __init__(self, report: MergeReport, file: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Import roster/bestiary"))
        self.report = report
        self.intro = QLabel(_("Importing {file} changes the roster and bestiary like this; nothing else is "
                              "touched.").format(file=file))
        self.intro.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([_(_HEADERS[column]) for column in PreviewColumn])
        self.tree.setRootIsDecorated(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.groups = self._fill()
        header = self.tree.header()
        header.setStretchLastSection(True)
        for column in (PreviewColumn.NAME, PreviewColumn.KIND, PreviewColumn.CAMPAIGN, PreviewColumn.GAME):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(_("&Import"))
        ok.setDefault(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        size_window(self, self.sizeHint().expandedTo(QSize(*SIZE)))
        self.tree.setFocus()

    def _fill(self) -> dict[str, QTreeWidgetItem]:
        report = self.report
        groups: dict[str, QTreeWidgetItem] = {}
        rows = (("added", ngettext("To add: {count} new entry", "To add: {count} new entries", len(report.added)),
                 [(entry, "") for entry in report.added], True),
                ("updated", ngettext("To update: {count} entry", "To update: {count} entries", len(report.updated)),
                 [(update.after, update.summary()) for update in report.updated], True),
                ("unchanged", ngettext("Already there as they are: {count} entry",
                                       "Already there as they are: {count} entries", len(report.unchanged)),
                 [(entry, "") for entry in report.unchanged], False))
        for key, title, entries, expanded in rows:
            if not entries:
                continue
            group = QTreeWidgetItem(self.tree, [title.format(count=len(entries))])
            group.setFirstColumnSpanned(True)
            for entry, changes in entries:
                QTreeWidgetItem(group, [entry.name, _(KIND_LABELS[entry.kind]), entry.campaign, _game(entry), changes])
            group.setExpanded(expanded)
            groups[key] = group
        return groups

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        columns = sum(self.tree.sizeHintForColumn(column) for column in PreviewColumn) + 60
        return QSize(max(hint.width(), columns), hint.height())
