"""What binds a match's log to what the service said while it ran: receipts and the signed head; pure.

The hash chain alone cannot show a log cut short or a tail rewritten consistently: whoever holds the
file can redo every hash after the change. Two things the service gives out close that gap
(docs/AUDIT.md, section 4):

- a **receipt** in every accepted command's answer: ``tavern-receipt/1``, the hex HMAC-SHA256 keyed
  with the match's seed of ``"tavern-receipt/1|{match_id}|{version}|{hash}"``, the hash being the
  chain hash of the entry at ``version``, the last the command appended. Keyed, not the bare hash:
  a bare hash over an entry with hidden content (another seat's face-down pick, a deal) could be
  matched by trying every card, which is why ``/events`` shows no hash while a match runs. The seed is
  revealed in the export, so anyone holding a receipt checks it against the file then.
- the **signed head** on the last line of a finished match's export: ``tavern-head/1`` (the match, its
  game, seed commitment and genesis, the last version and its hash), signed with the service's
  Ed25519 key, whose public half is published at ``/.well-known/tavern-signing-key``.
"""

from __future__ import annotations

import hashlib
import hmac

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

RECEIPT_FORMAT = "tavern-receipt/1"
HEAD_FORMAT = "tavern-head/1"
SIGNATURE_LINE = b'{"head":'  # how an export's last line starts when it is the signed head


def receipt(seed: str, match_id: str, version: int, hash: str) -> str:
    """The receipt of the entry at ``version`` whose chain hash is ``hash``."""
    message = f"{RECEIPT_FORMAT}|{match_id}|{version}|{hash}".encode()
    return hmac.new(seed.encode(), message, hashlib.sha256).hexdigest()


class Head(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the signature covers: the match (its charter, through the genesis) and where its log ends."""

    format: str
    match_id: str
    game: str
    seed_commitment: str
    genesis: str  # SHA-256 of the charter: every option, the seats, the rules version
    version: int  # the last entry's
    hash: str  # the last entry's chain hash


class ExportSignature(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The export's last line, on a finished match's export only."""

    head: str  # the Head's JSON text, byte for byte as signed
    key: str  # the signer's public key: hex of its 32 raw bytes
    signature: str  # hex of the 64-byte Ed25519 signature of ``head``'s UTF-8 bytes


SIGNING_KEY_PATH = "/.well-known/tavern-signing-key"  # where the service publishes its public key


class SigningKey(msgspec.Struct):
    """GET /.well-known/tavern-signing-key: what ``tavern audit --key`` checks a signed head with."""

    algorithm: str  # "Ed25519"
    public_key: str  # hex of its 32 raw bytes
    signs: str  # what it signs: the export's head, "tavern-head/1"


def public_hex(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def public_key(text: str) -> Ed25519PublicKey:
    """A public key from the hex of its 32 raw bytes (as published); ValueError if it is not one."""
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise ValueError("an Ed25519 public key is 64 hex characters") from None
    if len(raw) != 32 or raw.hex() != text:  # one way to write it: lowercase, nothing around it
        raise ValueError("an Ed25519 public key is 64 hex characters")
    return Ed25519PublicKey.from_public_bytes(raw)


def signature_line(key: Ed25519PrivateKey, head: Head) -> bytes:
    """The export's signature line (without its newline)."""
    text = msgspec.json.encode(head)
    return msgspec.json.encode(ExportSignature(text.decode(), public_hex(key), key.sign(text).hex()))


def signed_by(key: Ed25519PublicKey, signed: ExportSignature) -> bool:
    """Whether ``signed.signature`` is ``key``'s signature of ``signed.head``."""
    try:
        signature = bytes.fromhex(signed.signature)
        key.verify(signature, signed.head.encode())
    except (InvalidSignature, ValueError):
        return False
    return signature.hex() == signed.signature  # written one way only: lowercase hex
