"""The one error the rules raise: a refused command, with a stable machine-readable code."""

from __future__ import annotations


class RulesError(Exception):
    """A command that is well-formed but not allowed now.

    ``code`` is part of the public contract (API.md answers it as the 422 body's code): snake_case,
    named for the rule, never reworded once published. ``template`` is the message for people with
    ``{name}`` placeholders and ``params`` their values: the gateway says it in the caller's language
    (projections/i18n/); ``message`` is it in English.
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        text = message.format(**params) if params else message
        super().__init__(f"{code}: {text}")
        self.code = code
        self.message = text
        self.template, self.params = message, params


def require(condition: object, code: str, message: str, **params: object) -> None:
    """Raise ``RulesError(code, message, **params)`` unless ``condition`` holds: one line per rule."""
    if not condition:
        raise RulesError(code, message, **params)
