"""The service's Ed25519 signing key: what signs the head of a finished match's export
(projections/receipts.py), its public half published at ``/.well-known/tavern-signing-key``.

Every gateway and worker of one deployment must hold the same key (a gateway signs the exports it
serves, a worker the ones it archives): TAVERN_SIGNING_KEY (the value) or TAVERN_SIGNING_KEY_FILE
(a file every process sees, e.g. a mounted Secret). With neither, a process keeps one in its data
directory (``$XDG_DATA_HOME/tavern/signing-key``, else ``~/.local/share/tavern/signing-key``), made
on first start, so an embedded server keeps its key across restarts (deploy/README.md).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, load_pem_private_key


class BadKey(ValueError):
    """A configured signing key that is not an Ed25519 private key."""


def parsed(text: str) -> Ed25519PrivateKey:
    """A private key from its PEM (PKCS#8, as ``openssl genpkey -algorithm ed25519`` writes it) or
    the hex of its 32 raw bytes."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = load_pem_private_key(text.encode(), password=None)
        else:
            raw = bytes.fromhex(text)
            if len(raw) != 32:
                raise ValueError("not 32 bytes")
            key = Ed25519PrivateKey.from_private_bytes(raw)
    except (ValueError, TypeError) as problem:
        raise BadKey(f"not an Ed25519 private key (PEM, or 64 hex characters): {problem}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise BadKey("not an Ed25519 private key (PEM, or 64 hex characters)")
    return key


def default_file() -> Path:
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "tavern" / "signing-key"


def _kept(path: Path) -> Ed25519PrivateKey:
    """The key in ``path``, made there first if there is none: written whole to a file of its own,
    then linked into place, so processes starting together all end up with the one that got there."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = Ed25519PrivateKey.generate().private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".signing-key-")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(pem)
            with contextlib.suppress(FileExistsError):
                os.link(temporary, path)
        finally:
            os.unlink(temporary)
    return parsed(path.read_text())


def signing_key(value: str | None, file: str | None) -> Ed25519PrivateKey:
    """The key the settings name (TAVERN_SIGNING_KEY, else TAVERN_SIGNING_KEY_FILE), else the one
    kept in the data directory; BadKey for one that is not a key, OSError for a file not readable."""
    if value:
        return parsed(value)
    if file:
        return parsed(Path(file).read_text())
    return _kept(default_file())
