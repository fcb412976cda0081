"""The File menu's commands: new, open, save, the roster/bestiary files; a refusal is a message, never a loss."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QFileDialog, QMenu, QMessageBox

from app.disk_changes import FileChangedOnDisk
from app.i18n import _, ngettext
from app.paths import ENCOUNTER_SUFFIX
from rules.errors import RulesError
from ui.widgets.messages import as_written

if TYPE_CHECKING:
    from app.library_merge import MergeReport
    from ui.main_window import MainWindow

FILE_FILTER = "Bojovka (*.bojovka)"
LIBRARY_FILTER = "JSON (*.json)"


class FileCommands:
    """Encounter files and roster/bestiary files, for the window's File menu and its welcome page."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window

    def new_encounter(self, system_id: str) -> None:
        """Start an empty encounter of a game (asks to save the current one first)."""
        if self.may_discard():
            self._window.workspace.start_new(system_id)
            self._window.follow_default_game()
            self._window.show_fight()

    def open_file(self, path: Path) -> None:
        """Open an encounter file; a bad file gets a clear message and changes nothing."""
        self._open(lambda: self._window.workspace.open(path))

    def open_sample(self, system_id: str) -> None:
        """Open a copy of a game's shipped sample fight (saving it asks for a new file)."""
        self._open(lambda: self._window.workspace.open_sample(system_id))

    def _open(self, load: Callable[[], None]) -> None:
        if not self.may_discard():
            return
        try:
            load()
        except RulesError as problem:
            QMessageBox.warning(self._window, _("Cannot open the encounter"), as_written(str(problem)))
            return
        self._window.show_fight()

    def _chosen(self, name: str) -> Path | None:
        """The file the GM chose in a dialog (None: cancelled); the next dialog starts in its folder."""
        if not name:
            return None
        self._window.workspace.chose_file(Path(name))
        return Path(name)

    def _start(self, file_name: str = "") -> str:
        """Where a dialog starts: the GM's last folder (with ``file_name`` suggested in it)."""
        folder = self._window.workspace.start_directory()
        return str(folder / file_name if file_name else folder)

    def on_open(self) -> None:
        name, _filter = QFileDialog.getOpenFileName(self._window, _("Open an encounter"), self._start(), FILE_FILTER)
        chosen = self._chosen(name)
        if chosen is not None:
            self.open_file(chosen)

    def fill_recent_menu(self, menu: QMenu) -> None:
        """File → Open recent, as the settings have it now: the newest first, a file no longer there greyed
        (its tooltip says where it was), then Clear list."""
        menu.clear()
        from ui.welcome import recent_label

        recent = [Path(text) for text in self._window.workspace.settings.recent_files]
        for number, path in enumerate(recent, start=1):
            name = recent_label(path).replace("&", "&&")  # a file name's & is no mnemonic
            action = menu.addAction(f"&{number} {name}" if number < 10 else name)
            if path.is_file():
                action.setToolTip(str(path))
                action.triggered.connect(lambda _checked=False, chosen=path: self.open_file(chosen))
            else:
                action.setEnabled(False)
                action.setToolTip(_("{path} is no longer there (moved, renamed or deleted).").format(path=path))
        if not recent:
            menu.addAction(_("No recent encounters yet.")).setEnabled(False)
        menu.addSeparator()
        clear = menu.addAction(_("&Clear list"))
        clear.setEnabled(bool(recent))
        clear.triggered.connect(self.clear_recent_files)

    def clear_recent_files(self) -> None:
        """Forget the recent files, in the menu and on the welcome page."""
        self._window.workspace.clear_recent_files()
        self._window.rebuild_welcome_page()

    def on_save(self) -> None:
        if self._window.document.path is None:
            self.on_save_as()
            return
        self._save(None)

    def on_save_as(self) -> None:
        self._save_as(self._start(f"{self._window.document.state.name or _('Encounter')}{ENCOUNTER_SUFFIX}"))

    def _save_as(self, suggested: str) -> None:
        name, _filter = QFileDialog.getSaveFileName(self._window, _("Save the encounter"), suggested, FILE_FILTER)
        chosen = self._chosen(name)
        if chosen is not None:
            self._save(chosen)

    def _save(self, path: Path | None, overwrite: bool = False) -> None:
        try:
            saved = self._window.workspace.save(path, overwrite)
        except FileChangedOnDisk as changed:
            self._save_over_a_change(changed)
            return
        except RulesError as problem:
            QMessageBox.warning(self._window, _("Cannot save the encounter"), as_written(str(problem)))
            return
        self._window.statusBar().showMessage(_("Saved {file}").format(file=saved.name), 5000)

    def _save_over_a_change(self, changed: FileChangedOnDisk) -> None:
        """Someone else wrote the file since it was opened or saved here: a copy keeps both (the default),
        overwriting keeps only this fight, Cancel keeps thinking."""
        box = QMessageBox(QMessageBox.Icon.Warning, _("The file changed on disk"), as_written(str(changed)),
                          QMessageBox.StandardButton.Cancel, self._window)
        copy = box.addButton(_("Save as a &copy…"), QMessageBox.ButtonRole.AcceptRole)
        overwrite = box.addButton(_("&Overwrite"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(copy)
        box.exec()
        if box.clickedButton() is copy and changed.path is not None:
            self._save_as(str(changed.path.with_name(_("{name} (copy)").format(name=changed.path.stem)
                                                      + ENCOUNTER_SUFFIX)))
        elif box.clickedButton() is overwrite:
            self._save(None, overwrite=True)

    def may_discard(self) -> bool:
        """Ask before replacing a fight with unsaved changes (it is journaled either way)."""
        if not self._window.document.modified:
            return True
        answer = QMessageBox.question(
            self._window, _("Unsaved changes"), as_written(_("Save the changes to “{name}” first?").format(
                name=self._window.document.title().replace("[*]", ""))),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            self.on_save()
            return not self._window.document.modified
        return answer == QMessageBox.StandardButton.Discard

    def on_import_library(self) -> None:
        name, _filter = QFileDialog.getOpenFileName(self._window, _("Import roster/bestiary"), self._start(),
                                                    LIBRARY_FILTER)
        chosen = self._chosen(name)
        if chosen is not None:
            self.import_library(chosen)

    def import_library(self, path: Path) -> MergeReport | None:
        """Merge a roster/bestiary file in after showing what it will add and update (None: cancelled or
        refused); the status bar says what it did."""
        from app.library import parse_library_file  # the library is imported when first used, not at start-up
        from ui.dialogs.import_preview import import_summary, nothing_to_import  # loaded when first needed

        library = self._window.workspace.library
        try:
            entries = parse_library_file(path)
            plan = library.plan_merge(entries)
        except RulesError as problem:
            QMessageBox.warning(self._window, _("Cannot import the roster/bestiary"), as_written(str(problem)))
            return None
        if not plan.changes:
            self._window.statusBar().showMessage(nothing_to_import(plan, path.name), 8000)
            return plan
        if not self.confirm_import(plan, path):
            return None
        try:
            report = library.merge(entries)  # planned again: another window may have changed the library since
        except RulesError as problem:
            QMessageBox.warning(self._window, _("Cannot import the roster/bestiary"), as_written(str(problem)))
            return None
        self._window.statusBar().showMessage(import_summary(report, path.name), 8000)
        return report

    def confirm_import(self, plan: MergeReport, path: Path) -> bool:
        """Show what importing ``path`` will do; True when the GM chose Import."""
        from ui.dialogs.import_preview import ImportPreviewDialog

        return ImportPreviewDialog(plan, path.name, self._window).exec() == QDialog.DialogCode.Accepted

    def on_export_library(self) -> None:
        name, _filter = QFileDialog.getSaveFileName(self._window, _("Export roster/bestiary"),
                                                    self._start("bojovka-library.json"), LIBRARY_FILTER)
        chosen = self._chosen(name)
        if chosen is not None:
            count = self._window.workspace.export_library(chosen)
            self._window.statusBar().showMessage(ngettext("Exported {count} entry.", "Exported {count} entries.", count)
                                         .format(count=count), 5000)

    def on_print_summary(self) -> None:
        self._window.printing.print_summary()

    def on_print_preview(self) -> None:
        self._window.printing.preview_summary()

    def on_export_summary_pdf(self) -> None:
        self._window.printing.export_summary_pdf()

    def on_print_prep_sheet(self) -> None:
        self._window.printing.preview_prep_sheet()
