"""The packaging decisions held against the code: pins, kept Qt modules, metadata of every OS, pruning rules.

``make package`` builds and runs the real bundle; these checks run with ``make test`` and catch, in seconds, a
Qt module the code starts importing but the spec would leave out, a version that drifted, or a file type the
installers of the three systems no longer agree on.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import plistlib
import re
import tomllib
from pathlib import Path
from types import ModuleType
from xml.etree import ElementTree

import pytest

from app import icon
from app import main as entry
from rules.systems import system_ids

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
PIN = re.compile(r"^[A-Za-z0-9_.\-]+==[0-9][0-9A-Za-z.\-]*(\s*;\s*.+)?$")


def _load_bundle() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bojovka_bundle", PACKAGING / "bundle.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bundle = _load_bundle()


def _requirements(name: str) -> list[str]:
    lines = (PACKAGING / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("name", ["requirements-build.txt", "requirements-lint.txt"])
def test_build_requirements_are_pinned_exactly(name: str) -> None:
    requirements = _requirements(name)
    assert requirements
    assert [line for line in requirements if not PIN.match(line)] == []


def test_build_and_dev_pins_agree() -> None:
    with (ROOT / "pyproject.toml").open("rb") as stream:
        project = tomllib.load(stream)["project"]
    dev = {line.split("==")[0].lower(): line for line in project["optional-dependencies"]["dev"] if "==" in line}
    build = {line.split("==")[0].lower(): line.split(";")[0].strip()
             for line in _requirements("requirements-build.txt")}
    shared = set(dev) & set(build)
    assert "babel" in shared
    assert {name: build[name] for name in shared} == {name: dev[name] for name in shared}
    assert any(pin.startswith("PySide6-Essentials==6.11.") for pin in project["dependencies"])


def _pyside_modules_imported() -> set[str]:
    found: set[str] = set()
    for folder in ("rules", "app", "ui"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("PySide6."):
                    found.add(node.module.split(".")[1])
                elif isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[1] for alias in node.names
                                 if alias.name.startswith("PySide6."))
    return found


def test_every_qt_module_the_code_imports_is_kept() -> None:
    imported = _pyside_modules_imported()
    assert {"QtCore", "QtGui", "QtWidgets"} <= imported
    assert imported - bundle.QT_MODULES_KEPT == set()
    # pyqtgraph imports these itself (OpenGL widgets, SVG export).
    assert {"QtOpenGL", "QtOpenGLWidgets", "QtSvg"} <= bundle.QT_MODULES_KEPT


def test_unused_qt_modules_are_excluded(tmp_path: Path) -> None:
    for name in ("QtCore.abi3.so", "QtNetwork.abi3.so", "QtQml.pyd", "QtOpenGL.abi3.so", "QtCore.pyi"):
        (tmp_path / name).write_bytes(b"")
    assert bundle.qt_modules_excluded(tmp_path) == ["PySide6.QtNetwork", "PySide6.QtQml"]


def test_versions_agree() -> None:
    from app.storage import app_version

    assert bundle.version() == entry.VERSION == app_version()  # pyproject.toml, --version and saved files
    assert bundle.version_tuple() == tuple(int(part) for part in (*entry.VERSION.split("."), "0"))[:4]


def test_only_the_qt_catalogs_the_app_loads_ship() -> None:
    translations = "PySide6/Qt/translations"
    assert bundle.keep_data_file(f"{translations}/qtbase_cs.qm")
    assert not bundle.keep_data_file(f"{translations}/qtbase_de.qm")
    assert not bundle.keep_data_file(f"{translations}/designer_cs.qm")
    assert bundle.keep_data_file("PySide6/translations/qtbase_ru.qm")  # the Windows wheel's layout
    assert bundle.keep_data_file("resources/locale/cs/LC_MESSAGES/bojovka.mo")


def test_resources_ship_compiled_catalogs_not_their_sources() -> None:
    shipped = {Path(source).relative_to(ROOT).as_posix() for source, _folder in bundle.resource_files()}
    assert "resources/icons/bojovka.svg" in shipped
    assert {f"resources/samples/{game}.bojovka" for game in system_ids()} <= shipped
    assert not [name for name in shipped if name.endswith((".po", ".pot", ".md"))]
    assert all(folder == str(Path(source).parent.relative_to(ROOT)) for source, folder in bundle.resource_files())


def test_dropped_plugins_and_the_libraries_only_they_need_leave() -> None:
    links = {
        "/src/libqvnc.so": {"libqt6network.so.6", "libqt6gui.so.6"},
        "/src/libqxcb.so": {"libqt6gui.so.6", "libqt6dbus.so.6"},
        "/src/libqt6network.so.6": {"libgssapi_krb5.so.2"},
        "/src/libgssapi_krb5.so.2": set(),
        "/src/libqt6gui.so.6": set(),
        "/src/libqt6dbus.so.6": set(),
        "/src/libpython3.11.so.1.0": set(),
    }
    binaries = [
        ("PySide6/Qt/plugins/platforms/libqvnc.so", "/src/libqvnc.so", "BINARY"),
        ("PySide6/Qt/plugins/platforms/libqxcb.so", "/src/libqxcb.so", "BINARY"),
        ("PySide6/Qt/lib/libQt6Network.so.6", "/src/libqt6network.so.6", "BINARY"),
        ("libgssapi_krb5.so.2", "/src/libgssapi_krb5.so.2", "BINARY"),
        ("PySide6/Qt/lib/libQt6Gui.so.6", "/src/libqt6gui.so.6", "BINARY"),
        ("PySide6/Qt/lib/libQt6DBus.so.6", "/src/libqt6dbus.so.6", "BINARY"),
        ("libpython3.11.so.1.0", "/src/libpython3.11.so.1.0", "BINARY"),  # loaded by name: nothing links it
    ]
    kept = bundle.prune_binaries(binaries, lambda source: links[source])
    assert [Path(entry[0]).name for entry in kept] == [
        "libqxcb.so", "libQt6Gui.so.6", "libQt6DBus.so.6", "libpython3.11.so.1.0"]
    removed = {entry[0] for entry in binaries} - {entry[0] for entry in kept}
    datas = [("libQt6Network.so.6", "PySide6/Qt/lib/libQt6Network.so.6", "SYMLINK"),
             ("libQt6Gui.so.6", "PySide6/Qt/lib/libQt6Gui.so.6", "SYMLINK"),
             ("resources/icons/bojovka.svg", "/src/bojovka.svg", "DATA")]
    assert bundle.drop_leftovers(datas, removed) == datas[1:]


def test_a_removed_macos_framework_leaves_nothing_behind() -> None:
    framework = "PySide6/Qt/lib/QtNetwork.framework"
    removed = {f"{framework}/Versions/A/QtNetwork"}
    datas = [(f"{framework}/Versions/A/Resources/Info.plist", "/src/Info.plist", "DATA"),
             (f"{framework}/Versions/Current", "A", "SYMLINK"),
             (f"{framework}/QtNetwork", "Versions/Current/QtNetwork", "SYMLINK"),
             ("PySide6/Qt/lib/QtGui.framework/Versions/Current", "A", "SYMLINK"),
             ("PySide6/Qt/lib/QtGui.framework/Versions/A/Resources/Info.plist", "/src/GuiInfo.plist", "DATA")]
    assert bundle.drop_leftovers(datas, removed) == datas[3:]


@pytest.mark.parametrize(("destination", "dropped"), [
    ("PySide6/Qt/plugins/platforms/libqvnc.so", True),
    ("PySide6/plugins/platforms/qlinuxfb.dll", True),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", True),
    ("PySide6/Qt/plugins/generic/libqevdevmouseplugin.so", True),
    ("PySide6/Qt/plugins/platforms/libqxcb.so", False),
    ("PySide6/Qt/plugins/platforms/libqwayland.so", False),
    ("PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so", False),
    ("PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so", False),
    ("PySide6/Qt/lib/libQt6Network.so.6", False),
])
def test_which_plugins_are_dropped(destination: str, dropped: bool) -> None:
    assert bundle.dropped_plugin(destination) is dropped


def test_macos_bundle_declares_the_document_type_and_follows_dark_mode() -> None:
    plist = plistlib.loads(plistlib.dumps(bundle.info_plist()))
    assert plist["CFBundleIdentifier"] == bundle.BUNDLE_ID
    assert plist["CFBundleShortVersionString"] == entry.VERSION
    assert plist["NSRequiresAquaSystemAppearance"] is False
    document, declared = plist["CFBundleDocumentTypes"][0], plist["UTExportedTypeDeclarations"][0]
    assert document["LSItemContentTypes"] == [declared["UTTypeIdentifier"]]
    assert declared["UTTypeTagSpecification"]["public.filename-extension"] == ["bojovka"]
    assert declared["UTTypeTagSpecification"]["public.mime-type"] == [bundle.DOCUMENT_MIME]


def test_windows_version_resource_is_well_formed() -> None:
    text = bundle.windows_version_text()
    call = ast.parse(text, mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "VSVersionInfo"
    assert "filevers=(0, 1, 0, 0)" in text and "StringStruct('OriginalFilename', 'bojovka.exe')" in text


def test_linux_desktop_entry_and_mime_type_agree() -> None:
    desktop = configparser.ConfigParser(interpolation=None)
    desktop.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    desktop.read(PACKAGING / "linux" / "bojovka.desktop", encoding="utf-8")
    section = desktop["Desktop Entry"]
    assert section["Exec"].split()[0] == bundle.EXECUTABLE == icon.DESKTOP_FILE_NAME == section["Icon"]
    assert bundle.DOCUMENT_MIME in section["MimeType"].split(";")
    namespace = "{http://www.freedesktop.org/standards/shared-mime-info}"
    mime = ElementTree.parse(PACKAGING / "linux" / "bojovka-mime.xml").getroot().find(f"{namespace}mime-type")
    assert mime is not None and mime.get("type") == bundle.DOCUMENT_MIME
    assert [glob.get("pattern") for glob in mime.iter(f"{namespace}glob")] == ["*.bojovka"]


def test_windows_installer_associates_the_same_file_type() -> None:
    script = (PACKAGING / "windows" / "bojovka.nsi").read_text(encoding="utf-8")
    assert '!define EXE "bojovka.exe"' in script and '!define SUFFIX ".bojovka"' in script
    assert f'"Content Type" "{bundle.DOCUMENT_MIME}"' in script
    # The uninstaller removes its own files only: never the whole folder a GM may have chosen.
    code = [line.strip() for line in script.splitlines() if line.strip() and not line.strip().startswith(";")]
    assert 'RMDir /r "$INSTDIR\\_internal"' in code
    assert not [line for line in code if line.startswith('RMDir /r "$INSTDIR"')]
