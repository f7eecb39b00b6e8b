"""A request the service layer turns down: the HTTP status and stable code the gateway answers."""

from __future__ import annotations


class Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
