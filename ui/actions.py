"""Every command of the main window, declared once: text, shortcut, menu, toolbar, tip.

The main window builds QActions from these specs and connects each to a handler of the same name; menus
and toolbar are derived from the same list, so shortcuts always show in the menus.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from app.i18n import N_, _

#: A QAction property holding the command's name when its text says more (Undo's names the step it undoes):
#: the list of shortcuts calls the command by it.
COMMAND_NAME = "command_name"


class Menu(StrEnum):
    """Top-level menus, in menu-bar order."""

    FILE = N_("&File")
    EDIT = N_("&Edit")
    FIGHT = N_("F&ight")
    VIEW = N_("&View")
    HELP = N_("&Help")


@dataclass(frozen=True)
class ActionSpec:
    """One command: ``name`` is also the handler's name on the window (``on_<name>``)."""

    name: str
    text: str
    menu: Menu
    shortcut: str | QKeySequence.StandardKey | None = None
    tip: str = ""
    toolbar: bool = False
    separator_before: bool = False
    checkable: bool = False  # an on/off state the window keeps in step (the player view is open, …)


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("open", N_("&Open…"), Menu.FILE, QKeySequence.StandardKey.Open),
    ActionSpec("save", N_("&Save"), Menu.FILE, QKeySequence.StandardKey.Save, toolbar=False),
    ActionSpec("save_as", N_("Save &as…"), Menu.FILE, QKeySequence.StandardKey.SaveAs),
    ActionSpec("import_library", N_("&Import roster/bestiary…"), Menu.FILE, "Ctrl+Shift+I", separator_before=True),
    ActionSpec("export_library", N_("&Export roster/bestiary…"), Menu.FILE, "Ctrl+Shift+E"),
    ActionSpec("print_summary", N_("&Print summary…"), Menu.FILE, QKeySequence.StandardKey.Print,
               N_("Print the encounter summary: who fought, damage, who fell, notable rolls, the log"),
               separator_before=True),
    ActionSpec("print_preview", N_("Print pre&view…"), Menu.FILE, "Ctrl+Shift+P",
               N_("See the encounter summary's pages before printing")),
    ActionSpec("export_summary_pdf", N_("Export summary as P&DF…"), Menu.FILE, "Ctrl+Alt+P",
               N_("Write the encounter summary as a PDF file (A4 or Letter)")),
    ActionSpec("print_prep_sheet", N_("Print p&rep sheet…"), Menu.FILE, "Ctrl+Alt+Shift+P",
               N_("Every combatant's numbers, gear and empty condition tracks, to fill in at the table")),
    ActionSpec("welcome", N_("&Welcome page"), Menu.FILE, "Ctrl+Shift+W", separator_before=True),
    ActionSpec("preferences", N_("Pre&ferences…"), Menu.FILE, "Ctrl+,", N_("Language and theme")),
    ActionSpec("quit", N_("&Quit"), Menu.FILE, "Ctrl+Q", separator_before=True),
    ActionSpec("add", N_("&Add combatants…"), Menu.FIGHT, "Ins", N_("From the roster, the bestiary or quick add"),
               toolbar=True),
    ActionSpec("remove", N_("&Remove combatant"), Menu.FIGHT, "Del"),
    ActionSpec("duplicate", N_("D&uplicate combatant"), Menu.FIGHT, "Ctrl+D",
               N_("Add a fresh copy of the selected combatant, numbered on")),
    ActionSpec("hide_from_players", N_("Hidden from the pla&yers"), Menu.FIGHT, "Ctrl+Shift+H",
               N_("Leave the selected combatant out of the player view until you reveal them"), checkable=True),
    ActionSpec("save_to_library", N_("&Keep in roster/bestiary"), Menu.FIGHT, "Ctrl+K",
               N_("Save the selected combatant as a roster character or bestiary template")),
    ActionSpec("encounter_settings", N_("Encounter &settings…"), Menu.FIGHT, "Ctrl+E",
               N_("The encounter's name and every option the game leaves to the GM")),
    ActionSpec("roll_initiative", N_("&Roll initiative…"), Menu.FIGHT, "R",
               N_("NPCs roll automatically; type what the players rolled"), toolbar=True, separator_before=True),
    ActionSpec("next_turn", N_("&Next"), Menu.FIGHT, "Space", N_("The current actor is done"), toolbar=True),
    ActionSpec("back", N_("&Back"), Menu.FIGHT, "Shift+Space", N_("Undo the last change"), toolbar=True),
    ActionSpec("delay", N_("&Delay"), Menu.FIGHT, "L", N_("Hold the action to later in this round"),
               toolbar=True, separator_before=True),
    ActionSpec("delay_next_pass", N_("Delay into the next &pass"), Menu.FIGHT, "Shift+L"),
    ActionSpec("act_now", N_("Act &now (take the delayed action)"), Menu.FIGHT, "I"),
    ActionSpec("yield_turn", N_("Let &ties go first"), Menu.FIGHT, "Y"),
    ActionSpec("surprise_test", N_("S&urprise test…"), Menu.FIGHT, "S",
               N_("Everyone involved rolls Reaction; who may act against whom until their next phase")),
    ActionSpec("attack", N_("A&ttack…"), Menu.FIGHT, "A", N_("Resolve an attack with the odds shown first"),
               toolbar=True, separator_before=True),
    ActionSpec("repeat_attack", N_("Re&peat last attack"), Menu.FIGHT, "Shift+A",
               N_("The current actor's last attack again: same weapon and target, dice rolled; Enter resolves")),
    ActionSpec("reload", N_("Rel&oad"), Menu.FIGHT, "Shift+R",
               N_("Fill the magazine of the acting combatant's weapon (the one used last), as an action where the "
                  "game says so")),
    ActionSpec("damage", N_("&Damage…"), Menu.FIGHT, "D",
               N_("Mark damage, typed as the game writes it, on the selected rows (several: the same hit on each)"),
               toolbar=True),
    ActionSpec("heal", N_("&Heal…"), Menu.FIGHT, "H", N_("Take damage off the selected rows")),
    ActionSpec("add_effect", N_("Add &effect…"), Menu.FIGHT, "E",
               N_("A condition with a duration on the selected combatant (or the whole encounter)")),
    ActionSpec("player_view", N_("&Player view"), Menu.VIEW, "F9",
               N_("Open or close a second window for the players' screen"), toolbar=True, checkable=True),
    ActionSpec("initiative_chart", N_("&Initiative chart"), Menu.VIEW, "Ctrl+Shift+T",
               N_("Who acted where in each pass or round; scrub back to earlier turns")),
    ActionSpec("odds", N_("&Odds calculator"), Menu.VIEW, "Ctrl+Shift+O",
               N_("The chances of this game's rolls: dice, target numbers, pools")),
    ActionSpec("theme_system", N_("Theme: follow the &system"), Menu.VIEW, "Ctrl+Alt+S", separator_before=True),
    ActionSpec("theme_light", N_("Theme: &light"), Menu.VIEW, "Ctrl+Alt+L"),
    ActionSpec("theme_dark", N_("Theme: &dark"), Menu.VIEW, "Ctrl+Alt+D"),
    ActionSpec("keyboard_shortcuts", N_("&Keyboard shortcuts"), Menu.HELP, "Ctrl+F1",
               N_("Every shortcut of the window, menu by menu")),
    ActionSpec("about", N_("&About Bojovka"), Menu.HELP, "F1"),
)


def platform_bindings(key: QKeySequence.StandardKey) -> list[QKeySequence]:
    """The desktop's key sequences for a standard command, its preferred one first.

    They differ between desktops (Redo is Ctrl+Y first on Windows, Ctrl+Shift+Z on macOS and plain X11), so
    every shortcut of the window asks here; tests replace this to see the window as another desktop builds it.
    """
    return list(QKeySequence.keyBindings(key))


def unique_shortcuts(*wanted: str | QKeySequence.StandardKey) -> list[QKeySequence]:
    """The sequences of ``wanted`` in order, each once (a standard key brings all the desktop's bindings).

    Qt refuses a key bound twice in one window, even twice to the same action ("Ambiguous shortcut overload")
    and the key then does nothing: Redo as "Ctrl+Shift+Z" plus the desktop's Redo was exactly that."""
    kept: list[QKeySequence] = []
    for item in wanted:
        sequences = platform_bindings(item) if isinstance(item, QKeySequence.StandardKey) else [QKeySequence(item)]
        for sequence in sequences:
            if not sequence.isEmpty() and sequence not in kept:
                kept.append(sequence)
    return kept


def first_shortcut(wanted: str | QKeySequence.StandardKey) -> list[QKeySequence]:
    """The one sequence of a named key, or the desktop's preferred one of a standard key (none if it has none)."""
    return unique_shortcuts(wanted)[:1]


def build_action(spec: ActionSpec, parent: QWidget) -> QAction:
    """A QAction for ``spec`` with its translated text, shortcut (shown in menus) and tip."""
    action = QAction(_(spec.text), parent)
    action.setObjectName(f"action_{spec.name}")
    action.setCheckable(spec.checkable)
    if spec.shortcut is not None:
        action.setShortcuts(first_shortcut(spec.shortcut))
    set_tip(action, _(spec.tip) if spec.tip else action.text().replace("&", ""))
    return action


def set_tip(action: QAction, tip: str) -> None:
    """The action's tooltip (with its shortcut) and status tip, already translated."""
    shortcut = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    action.setToolTip(f"{tip} ({shortcut})" if shortcut else tip)
    action.setStatusTip(tip)
