"""Strict JSON: what msgspec refuses, and what it would recurse into too deeply, is the client's
error (a 400), never the server's. Every decode of a client's body goes through here."""

from __future__ import annotations

import re
from typing import Any

import msgspec

# what a malformed body makes msgspec raise: invalid UTF-8 in a string is a UnicodeDecodeError,
# and nesting past the interpreter's recursion limit a RecursionError (nesting_within stops it first)
REFUSED = (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError)
MAX_VERSION = 2**53  # past any log's length; a version, or an ``after``, beyond it is refused
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


class Malformed(ValueError):
    """A body that is not the JSON asked for; ``str()`` says why."""


def nesting_within(body: bytes, limit: int) -> bool:
    """Whether no array or object of ``body`` lies more than ``limit`` deep."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return True  # the fast path: too few brackets to nest that deep, whatever their order
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b"", body)):
        depth += 1 if bracket.group() in b"[{" else -1
        if depth > limit:
            return False
    return True


def decode(body: bytes, kind: Any, depth: int, decoder: msgspec.json.Decoder | None = None) -> Any:
    """``body`` as a ``kind`` (with ``decoder`` if given), or Malformed."""
    if not nesting_within(body, depth):
        raise Malformed(f"JSON nested more than {depth} deep")
    try:
        return decoder.decode(body) if decoder is not None else msgspec.json.decode(body, type=kind)
    except REFUSED as problem:
        raise Malformed(str(problem) or type(problem).__name__) from problem
