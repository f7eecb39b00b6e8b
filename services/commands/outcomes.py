"""What submitting a command comes to: the service layer's results, in its own terms.

A value rather than an exception: a 409 is normal in a simultaneous phase, every caller (the
gateway, a bot, the timeouts' sweeper) looks at it, and the one an idempotency key remembers is
this value encoded (``encode``/``decode``), never an HTTP answer. The gateway maps each to its
status and body (services/gateway/answers.py)."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from projections.i18n import N_


class Accepted(msgspec.Struct, tag="accepted"):
    """Appended: the match is now at ``version``; ``events`` as the seat may see them; ``receipt``
    binds the chain hash of entry ``version`` (projections/receipts.py), checked by ``tavern audit``
    against the export. None only in an outcome kept before receipts existed."""

    version: int
    events: list[Any]
    receipt: str | None = None


class Rejected(msgspec.Struct, tag="rejected"):
    """Refused by a rule of the game (its own code), or not the client's to send (system_command)."""

    code: str
    message: str  # in English
    template: str = ""  # the message as a catalog id with {name} placeholders (projections/i18n/), and their values
    params: dict[str, Any] = {}


class Stale(msgspec.Struct, tag="stale"):
    """Sent for an older version than ``version``, the newest appended, and not decided anyway."""

    version: int
    code: ClassVar[str] = "stale_version"
    TEMPLATE: ClassVar[str] = N_("the match is at version {version}")

    @property
    def message(self) -> str:
        return self.TEMPLATE.format(version=self.version)


class Ended(msgspec.Struct, tag="ended"):
    """Abandoned or archived: the log takes nothing more."""

    code: ClassVar[str] = "match_ended"
    message: ClassVar[str] = N_("the match has ended and takes no more commands")


class Contention(msgspec.Struct, tag="contention"):
    """Every attempt lost its append to another command."""

    code: ClassVar[str] = "contention"
    message: ClassVar[str] = N_("the match changed under every attempt; send it again")


Outcome = Accepted | Rejected | Stale | Ended | Contention

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Outcome)


def encode(outcome: Outcome) -> bytes:
    """The outcome as an idempotency key keeps it."""
    return _encoder.encode(outcome)


def decode(kept: bytes) -> Outcome:
    """A kept outcome; also the ``b"<status> <body>"`` form gateways before this one kept, which
    may still be held (for the idempotency TTL) by a deployment upgraded in place."""
    if kept[:1].isdigit():
        return _legacy(kept)
    return _decoder.decode(kept)


class _Error(msgspec.Struct):
    code: str
    message: str


class _Legacy(msgspec.Struct):
    error: _Error | None = None
    version: int | None = None
    events: list[Any] = []


def _legacy(kept: bytes) -> Outcome:
    old = msgspec.json.decode(kept.partition(b" ")[2], type=_Legacy)  # after the status
    if old.error is None:
        assert old.version is not None, kept
        return Accepted(old.version, old.events)
    if old.error.code == Stale.code and old.version is not None:
        return Stale(old.version)
    if old.error.code == Ended.code:
        return Ended()
    if old.error.code == Contention.code:
        return Contention()
    return Rejected(old.error.code, old.error.message)
