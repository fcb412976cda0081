; Bojovka's Windows installer (NSIS 3). The release workflow builds it from the PyInstaller onedir bundle:
;
;   makensis /DVERSION=0.1.0 /DVERSION4=0.1.0.0 /DPAYLOAD=dist\bojovka /DICON=build\icons\bojovka.ico ^
;            /DOUTFILE=dist\Bojovka-0.1.0-setup.exe packaging\windows\bojovka.nsi
;
; `make package` compiles it on Linux against a stand-in payload (packaging/windows/check-nsis.sh).
; Installs for every user of the machine into Program Files, adds a Start-menu shortcut, an optional desktop
; shortcut, the .bojovka file association and an Add/Remove Programs entry. The uninstaller removes exactly
; what the installer put there; a GM's encounters, roster and settings (in %LOCALAPPDATA%\Bojovka and their
; Documents) are theirs and stay.

Unicode true
ManifestDPIAware true
SetCompressor /SOLID lzma

!ifndef VERSION | VERSION4 | PAYLOAD | ICON | OUTFILE
  !error "Define VERSION, VERSION4, PAYLOAD, ICON and OUTFILE (see the command at the top of this file)"
!endif

!define APP "Bojovka"
!define EXE "bojovka.exe"
!define PROGID "Bojovka.Encounter"
!define SUFFIX ".bojovka"
!define PUBLISHER "Bojovka developers"
!define APP_KEY "Software\${APP}"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${APP}"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "x64.nsh"

Name "${APP} ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\${APP}"
InstallDirRegKey HKLM "${APP_KEY}" "InstallDir"
RequestExecutionLevel admin
BrandingText "${APP} ${VERSION}"

VIProductVersion "${VERSION4}"
VIFileVersion "${VERSION4}"
VIAddVersionKey /LANG=0 "ProductName" "${APP}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileDescription" "${APP} installer"
VIAddVersionKey /LANG=0 "CompanyName" "${PUBLISHER}"
VIAddVersionKey /LANG=0 "LegalCopyright" "MIT licence"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE}"
!define MUI_COMPONENTSPAGE_NODESC

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

; The GM's languages: the installer follows Windows' display language.
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "Czech"
!insertmacro MUI_LANGUAGE "Polish"
!insertmacro MUI_LANGUAGE "Russian"

LangString SecAppName ${LANG_ENGLISH} "Bojovka"
LangString SecAppName ${LANG_CZECH} "Bojovka"
LangString SecAppName ${LANG_POLISH} "Bojovka"
LangString SecAppName ${LANG_RUSSIAN} "Bojovka"
LangString SecDesktopName ${LANG_ENGLISH} "Desktop shortcut"
LangString SecDesktopName ${LANG_CZECH} "Zástupce na ploše"
LangString SecDesktopName ${LANG_POLISH} "Skrót na pulpicie"
LangString SecDesktopName ${LANG_RUSSIAN} "Ярлык на рабочем столе"
LangString DocumentName ${LANG_ENGLISH} "Bojovka encounter"
LangString DocumentName ${LANG_CZECH} "Střetnutí Bojovky"
LangString DocumentName ${LANG_POLISH} "Starcie Bojovki"
LangString DocumentName ${LANG_RUSSIAN} "Схватка Bojovka"
LangString Needs64Bit ${LANG_ENGLISH} "Bojovka needs 64-bit Windows 10 or later."
LangString Needs64Bit ${LANG_CZECH} "Bojovka potřebuje 64bitová Windows 10 nebo novější."
LangString Needs64Bit ${LANG_POLISH} "Bojovka wymaga 64-bitowego systemu Windows 10 lub nowszego."
LangString Needs64Bit ${LANG_RUSSIAN} "Для Bojovka нужна 64-битная Windows 10 или новее."

Function .onInit
  ${IfNot} ${RunningX64}
    MessageBox MB_ICONSTOP "$(Needs64Bit)"
    Abort
  ${EndIf}
  SetRegView 64
  SetShellVarContext all
FunctionEnd

Function un.onInit
  SetRegView 64
  SetShellVarContext all
FunctionEnd

Section "$(SecAppName)" SecApp
  SectionIn RO
  SetOutPath "$INSTDIR"
  ; An upgrade replaces the whole bundle, so no module of the previous version lingers next to the new ones.
  RMDir /r "$INSTDIR\_internal"
  File /r "${PAYLOAD}\*"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  WriteRegStr HKLM "${APP_KEY}" "InstallDir" "$INSTDIR"

  CreateShortcut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0

  ; Double-clicking a .bojovka file opens it in Bojovka.
  WriteRegStr HKLM "Software\Classes\${SUFFIX}" "" "${PROGID}"
  WriteRegStr HKLM "Software\Classes\${SUFFIX}" "Content Type" "application/x-bojovka"
  WriteRegStr HKLM "Software\Classes\${SUFFIX}\OpenWithProgids" "${PROGID}" ""
  WriteRegStr HKLM "Software\Classes\${PROGID}" "" "$(DocumentName)"
  WriteRegStr HKLM "Software\Classes\${PROGID}\DefaultIcon" "" "$INSTDIR\${EXE},0"
  WriteRegStr HKLM "Software\Classes\${PROGID}\shell\open\command" "" '"$INSTDIR\${EXE}" "%1"'
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'

  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayName" "${APP}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\${EXE},0"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKLM "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoRepair" 1
  SectionGetSize ${SecApp} $0
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "EstimatedSize" $0
SectionEnd

Section /o "$(SecDesktopName)" SecDesktop
  CreateShortcut "$DESKTOP\${APP}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0
SectionEnd

Section "Uninstall"
  ; Only what the installer wrote. Never RMDir /r "$INSTDIR": a GM may have chosen a folder holding their own
  ; files. User data lives elsewhere (%LOCALAPPDATA%\Bojovka, Documents) and is left alone.
  Delete "$SMPROGRAMS\${APP}.lnk"
  Delete "$DESKTOP\${APP}.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${EXE}"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"

  ; The association goes only if it is still ours (another program may have taken .bojovka since).
  DeleteRegValue HKLM "Software\Classes\${SUFFIX}\OpenWithProgids" "${PROGID}"
  ReadRegStr $0 HKLM "Software\Classes\${SUFFIX}" ""
  ${If} $0 == "${PROGID}"
    DeleteRegKey HKLM "Software\Classes\${SUFFIX}"
  ${EndIf}
  DeleteRegKey HKLM "Software\Classes\${PROGID}"
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'

  DeleteRegKey HKLM "${UNINSTALL_KEY}"
  DeleteRegKey HKLM "${APP_KEY}"
SectionEnd
