"""Rule data tables shipped with Bojovka (JSON); a GM's overrides are merged over them per encounter."""
