"""What ``tavern serve`` and ``tavern worker`` do first: settings from the environment (checked),
JSON logs, and every Redis they name reached, or one line and a non-zero exit."""

from __future__ import annotations

import sys

from services.ops import logs, settings
from services.store import preflight, reach


def checked_settings(command: str) -> settings.Settings | None:
    """The settings, once every Redis they name answers; else None, having said why in one line."""
    try:
        config = settings.from_env()
    except settings.BadSetting as problem:
        print(f"tavern {command}: {problem}", file=sys.stderr)
        return None
    logs.configure(config.log_level)
    away = None if config.embedded else reach.unreachable(config) or preflight.refusal(config)
    if away is not None:
        print(f"tavern {command}: {away}", file=sys.stderr)
        return None
    return config
