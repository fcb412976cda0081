"""What goes into the PyInstaller bundle, in one place: read by ``bojovka.spec`` and checked by the tests.

    python packaging/bundle.py check     # build each OS's metadata (Windows version info, macOS Info.plist)
    python packaging/bundle.py version   # print the version (for the installer scripts)
    python packaging/bundle.py version4  # the same as four numbers (Windows version resources: 0.1.0.0)

Kept apart from the spec so the choices (which Qt modules stay, which Qt translations ship, which resource
files are bundled) are plain data a test can hold against the code, and so the per-OS metadata can be built
and checked on Linux too.
"""

from __future__ import annotations

import ast
import os
import plistlib
import re
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP_NAME = "Bojovka"
#: Lower-case: the executable, the Linux package, the desktop entry and the icon-theme name.
EXECUTABLE = "bojovka"
BUNDLE_ID = "org.bojovka.Bojovka"
DOCUMENT_UTI = "org.bojovka.encounter"
DOCUMENT_MIME = "application/x-bojovka"
DOCUMENT_SUFFIX = "bojovka"
DESCRIPTION = "Combat tracker for tabletop game masters"
#: Qt 6.11, which PySide6-Essentials 6.11 wraps, runs on macOS 13 and later.
MACOS_MINIMUM = "13.0"

#: The PySide6 modules the bundle keeps; every other PySide6 module is excluded. QtSvg draws the icon and
#: the SVG chart export, QtPrintSupport the printed summary, QtOpenGL/QtOpenGLWidgets are imported by pyqtgraph.
QT_MODULES_KEPT = frozenset({
    "QtCore", "QtGui", "QtWidgets", "QtSvg", "QtSvgWidgets", "QtPrintSupport", "QtOpenGL", "QtOpenGLWidgets",
})
#: Languages the GM can choose besides English; Qt's own catalogs (file and print dialogs) ship for these only.
LANGUAGES = ("cs", "pl", "ru")
QT_TRANSLATIONS_KEPT = frozenset(f"qtbase_{language}.qm" for language in LANGUAGES)
#: Qt plugins a GM's desktop never loads, by plugin folder ("*" = the whole folder): embedded-device and VNC
#: platforms, raw input drivers for them, and the GTK3 theme (which would drag GTK, Cairo and Pango libraries
#: of the build machine into the bundle, where they clash with the user's own). Qt's xdg-desktop-portal theme
#: still gives native file dialogs.
QT_PLUGINS_DROPPED = {
    "platforms": frozenset({"qvnc", "qlinuxfb", "qeglfs", "qminimalegl", "qvkkhrdisplay"}),
    "generic": frozenset({"*"}),
    "egldeviceintegrations": frozenset({"*"}),
    "platformthemes": frozenset({"qgtk3"}),
}
#: Python packages the app never imports at run time (test and build tools that share the venv).
PYTHON_EXCLUDES = ("tkinter", "pytest", "_pytest", "hypothesis", "icepool", "babel", "mypy", "PIL", "yaml")
#: Files under resources/ that are sources, not things the app reads: translation sources and notes.
RESOURCE_SOURCE_SUFFIXES = (".po", ".pot", ".md")


def version() -> str:
    """The project version from pyproject.toml."""
    with (ROOT / "pyproject.toml").open("rb") as stream:
        return str(tomllib.load(stream)["project"]["version"])


def version_tuple() -> tuple[int, int, int, int]:
    """``0.1.0`` → ``(0, 1, 0, 0)`` for the Windows version resource."""
    numbers = [int(part) for part in re.findall(r"\d+", version())] + [0, 0, 0, 0]
    return numbers[0], numbers[1], numbers[2], numbers[3]


def qt_modules_excluded(pyside_dir: Path) -> list[str]:
    """Every PySide6 extension module found in the installed wheel that the app does not keep."""
    names = {path.name.split(".", maxsplit=1)[0] for path in pyside_dir.glob("Qt*.*") if path.suffix in {".so", ".pyd"}}
    return sorted(f"PySide6.{name}" for name in names - QT_MODULES_KEPT)


def keep_data_file(destination: str) -> bool:
    """False for Qt translation catalogs the app never loads (PyInstaller's hooks collect all of them)."""
    parts = Path(destination).parts
    if "translations" in parts and parts[-1].endswith(".qm") and "PySide6" in parts:
        return parts[-1] in QT_TRANSLATIONS_KEPT
    return True


def _plugin_name(filename: str) -> str:
    """``libqvnc.so`` / ``qvnc.dll`` / ``libqvnc.dylib`` → ``qvnc``."""
    stem = filename.split(".", maxsplit=1)[0]
    return stem[3:] if stem.startswith("lib") else stem


def dropped_plugin(destination: str) -> bool:
    """True for a Qt plugin listed in :data:`QT_PLUGINS_DROPPED`."""
    parts = Path(destination).parts
    if "plugins" not in parts or len(parts) < 3 or parts[-3] != "plugins":
        return False
    names = QT_PLUGINS_DROPPED.get(parts[-2], frozenset())
    return "*" in names or _plugin_name(parts[-1]) in names


Entry = tuple[str, str, str]


def prune_binaries(binaries: list[Entry], imports_of: Callable[[str], set[str]]) -> list[Entry]:
    """Drop the unwanted Qt plugins, then every library only they needed.

    ``binaries`` are PyInstaller TOC entries (destination, source, kind); ``imports_of(source)`` names the
    libraries a binary links to. A library is dropped only if a dropped plugin reached it and nothing kept
    links to it, so a library loaded by name at run time (libpython, say) is never at risk.
    """
    dropped = [entry for entry in binaries if dropped_plugin(entry[0])]
    kept = [entry for entry in binaries if not dropped_plugin(entry[0])]
    reached = _reach({Path(entry[0]).name.lower() for entry in dropped}, binaries, imports_of)
    while True:
        wanted = {name for entry in kept for name in imports_of(entry[1]) if name != Path(entry[0]).name.lower()}
        orphans = [entry for entry in kept if Path(entry[0]).name.lower() in reached - wanted]
        if not orphans:
            return kept
        kept = [entry for entry in kept if entry not in orphans]


def _framework(destination: str) -> str | None:
    """``PySide6/Qt/lib/QtNetwork.framework`` for any path inside that macOS framework, else None."""
    parts = Path(destination).parts
    ends = [index for index, part in enumerate(parts) if part.endswith(".framework")]
    return str(Path(*parts[:ends[0] + 1])) if ends else None


def drop_leftovers(datas: list[Entry], removed: set[str]) -> list[Entry]:
    """Drop what PyInstaller collected around binaries that :func:`prune_binaries` removed.

    That is the symbolic links to them (Linux: top-level links to Qt libraries; a SYMLINK entry's source is its
    target relative to the link's folder) and, on macOS, the rest of a removed library's ``.framework``
    (Info.plist, the ``Versions/Current`` links), which would otherwise be left dangling inside the app bundle.
    """
    frameworks = {framework for framework in map(_framework, removed) if framework}

    def inside_removed(path: str) -> bool:
        return path in removed or any(path == folder or path.startswith(folder + os.sep) for folder in frameworks)

    def leftover(entry: Entry) -> bool:
        destination = os.path.normpath(entry[0])
        target = os.path.normpath(os.path.join(os.path.dirname(destination), entry[1]))
        return inside_removed(destination) or (entry[2] == "SYMLINK" and inside_removed(target))

    return [entry for entry in datas if not leftover(entry)]


def _reach(start: set[str], binaries: list[Entry], imports_of: Callable[[str], set[str]]) -> set[str]:
    """Names of every library reachable from ``start`` through the bundle's own binaries (start excluded)."""
    by_name = {Path(entry[0]).name.lower(): entry[1] for entry in binaries}
    seen: set[str] = set()
    frontier = set(start)
    while frontier:
        name = frontier.pop()
        for needed in imports_of(by_name[name]) if name in by_name else set():
            if needed not in seen and needed not in start:
                seen.add(needed)
                frontier.add(needed)
    return seen


def resource_files() -> Iterator[tuple[str, str]]:
    """(source file, bundle folder) for everything under resources/ the app reads, .mo catalogs included."""
    resources = ROOT / "resources"
    for path in sorted(resources.rglob("*")):
        if path.is_file() and path.suffix not in RESOURCE_SOURCE_SUFFIXES:
            yield str(path), str(path.parent.relative_to(ROOT))


def missing_catalogs() -> list[str]:
    """Compiled catalogs the bundle needs but the tree lacks (run ``make catalogs``)."""
    wanted = (ROOT / "resources" / "locale" / language / "LC_MESSAGES" / "bojovka.mo" for language in LANGUAGES)
    return [str(path.relative_to(ROOT)) for path in wanted if not path.is_file()]


def info_plist() -> dict[str, object]:
    """macOS Info.plist entries: identity, version, dark mode, and the .bojovka document type."""
    return {
        "CFBundleName": APP_NAME,
        "CFBundleDisplayName": APP_NAME,
        "CFBundleIdentifier": BUNDLE_ID,
        "CFBundleShortVersionString": version(),
        "CFBundleVersion": version(),
        "LSMinimumSystemVersion": MACOS_MINIMUM,
        "LSApplicationCategoryType": "public.app-category.role-playing-games",
        "NSHighResolutionCapable": True,
        # False = the app follows the system's light/dark appearance (ui/theme.py picks the palette).
        "NSRequiresAquaSystemAppearance": False,
        "NSHumanReadableCopyright": "MIT licence",
        "CFBundleDocumentTypes": [{
            "CFBundleTypeName": "Bojovka encounter",
            "CFBundleTypeRole": "Editor",
            "LSHandlerRank": "Owner",
            "LSItemContentTypes": [DOCUMENT_UTI],
            "CFBundleTypeIconFile": "bojovka.icns",
        }],
        "UTExportedTypeDeclarations": [{
            "UTTypeIdentifier": DOCUMENT_UTI,
            "UTTypeDescription": "Bojovka encounter",
            "UTTypeConformsTo": ["public.json"],
            "UTTypeIconFile": "bojovka.icns",
            "UTTypeTagSpecification": {
                "public.filename-extension": [DOCUMENT_SUFFIX],
                "public.mime-type": [DOCUMENT_MIME],
            },
        }],
    }


def windows_version_text() -> str:
    """The Windows version resource (Explorer's Details tab; Task Manager shows FileDescription) as PyInstaller text.

    Written as text rather than with PyInstaller's ``versioninfo`` classes, which import only on Windows: this
    way Linux builds and checks the very text the Windows build embeds.
    """
    numbers, text = version_tuple(), version()
    strings = {"CompanyName": APP_NAME, "FileDescription": APP_NAME, "FileVersion": text,
               "InternalName": EXECUTABLE, "LegalCopyright": "MIT licence",
               "OriginalFilename": f"{EXECUTABLE}.exe", "ProductName": APP_NAME, "ProductVersion": text}
    table = ",\n          ".join(f"StringStruct({key!r}, {value!r})" for key, value in strings.items())
    return f"""VSVersionInfo(
  ffi=FixedFileInfo(filevers={numbers}, prodvers={numbers}, mask=0x3F, flags=0x0, OS=0x40004,
                    fileType=0x1, subtype=0x0, date=(0, 0)),
  kids=[
    StringFileInfo([StringTable('040904B0', [
          {table}])]),
    VarFileInfo([VarStruct('Translation', [0x0409, 1200])])
  ]
)
"""


def write_windows_version_file(path: Path) -> Path:
    """Write :func:`windows_version_text` for ``EXE(version=...)``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(windows_version_text(), encoding="utf-8")
    return path


def check() -> int:
    """Build every OS's metadata here, so a typo in a branch CI only runs on Windows or macOS shows on Linux."""
    plist = plistlib.loads(plistlib.dumps(info_plist()))
    assert plist["CFBundleDocumentTypes"][0]["LSItemContentTypes"] == [DOCUMENT_UTI]
    rendered = windows_version_text()
    call = ast.parse(rendered, mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "VSVersionInfo"
    assert repr(version()) in rendered and f"{EXECUTABLE}.exe" in rendered
    print(f"bundle metadata ok: {APP_NAME} {version()}, Info.plist {len(plist)} keys, "
          f"Windows version resource {version_tuple()}")
    return 0


def main(argv: list[str]) -> int:
    """``check``, ``version`` or ``version4``."""
    if argv[1:] == ["version"]:
        print(version())
        return 0
    if argv[1:] == ["version4"]:
        print(".".join(map(str, version_tuple())))
        return 0
    if argv[1:] == ["check"]:
        return check()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
