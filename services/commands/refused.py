"""A request the service layer turns down: its kind, a stable code and a message for people.

The kind says what went wrong in the service's own terms; the gateway alone knows which HTTP
status each kind is (services/gateway/answers.py)."""

from __future__ import annotations

from typing import Literal

# invalid: not a well-formed request; forbidden: not this caller's to do; not_found: no such thing;
# conflict: the state it acts on does not allow it now; unprocessable: well-formed, refused by a
# rule; too_many: past a quota
Kind = Literal["invalid", "forbidden", "not_found", "conflict", "unprocessable", "too_many"]


class Refused(Exception):
    """``message`` is a catalog id with ``{name}`` placeholders filled from ``params`` (said in the
    caller's language by the gateway, projections/i18n/); ``str()`` of it is the English."""

    def __init__(self, kind: Kind, code: str, message: str, **params: object) -> None:
        super().__init__(message.format(**params) if params else message)
        self.kind, self.code, self.message = kind, code, str(self)
        self.template, self.params = message, params
