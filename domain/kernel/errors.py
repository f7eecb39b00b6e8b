"""The one error the rules raise: a refused command, with a stable machine-readable code."""

from __future__ import annotations


class RulesError(Exception):
    """A command that is well-formed but not allowed now.

    ``code`` is part of the public contract (API.md answers it as the 422 body's code): snake_case,
    named for the rule, never reworded once published.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def require(condition: object, code: str, message: str) -> None:
    """Raise ``RulesError(code, message)`` unless ``condition`` holds: one line per rule."""
    if not condition:
        raise RulesError(code, message)
