"""The deployment's VAPID key (RFC 8292), which signs every Web Push request
(docs/notifications.md): TAVERN_VAPID_KEY, or the shipped default (settings.DEFAULT_VAPID_KEY)."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid


@dataclass(frozen=True, slots=True)
class Vapids:
    key: Vapid
    subject: str  # mailto: or https: where push services can reach the operator

    @property
    def public(self) -> str:
        """The public key as a browser's ``applicationServerKey`` takes it (base64url, uncompressed point)."""
        raw = self.key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def vapids(private: str, subject: str) -> Vapids:
    """The key of TAVERN_VAPID_KEY (base64url raw, DER, or PEM); ValueError if it is none of them."""
    try:
        if private.lstrip().startswith("-----BEGIN"):
            return Vapids(Vapid.from_pem(private.encode()), subject)
        return Vapids(Vapid.from_string(private), subject)
    except Exception as problem:  # py_vapid raises what its parsers raise
        raise ValueError(f"a P-256 private key (base64url raw, DER or PEM): {problem}") from None
