"""The tamperings the hash chain alone cannot show, every one refused by ``tavern audit`` given the
service's published key, a receipt or the last hash (docs/AUDIT.md, section 4): a log cut short and
ended so that it looks whole, a tail rewritten with other legal commands, each unsigned, with the
service's signature kept, or signed again with a forger's key; and the signature line itself
removed, edited, re-signed, moved, doubled, or taken from another match. None crashes the auditor.

Each log-changing forgery here is a whole valid match (the plain audit accepts it): that is what
an auditor could not tell from the service's own log before receipts and the signed head."""

from __future__ import annotations

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.games import game_ids
from projections.audit import Anchors, AuditFailure, audit
from projections.chain import Charter, digest, head_of
from projections.receipts import ExportSignature, Head, receipt, signature_line
from services.ops import logs
from tests.audit.forgery import (
    abandoned,
    change_byte,
    entry_lines,
    envelopes,
    file_of,
    lines_of,
    other_moves,
    with_tail,
)
from tests.audit.matches import KEY, SIGNER, exported

FORGER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))  # anyone's key but the service's


@pytest.fixture(scope="module", params=game_ids())
def export(request) -> bytes:
    logs.configure("warning")
    return exported(request.param)


def refused(data: bytes, anchors: Anchors) -> AuditFailure:
    with pytest.raises(AuditFailure) as failure:
        audit(data, anchors=anchors)
    return failure.value


def signed(data: bytes, key: Ed25519PrivateKey) -> bytes:
    """The file's entries with its head signed by ``key`` (what a forger holding it would write)."""
    lines = entry_lines(data)
    header, _ = envelopes(data)
    bodies = [(b"", msgspec.json.decode(line)["hash"]) for line in lines[1:]]
    head = head_of(msgspec.json.decode(header.charter, type=Charter), digest(header.charter.encode()), bodies)
    return file_of([*lines, signature_line(key, head)])


def rewritten_logs(export: bytes) -> dict[str, bytes]:
    """Whole valid matches that are not the one the service ran: cut short, or with another tail."""
    commands = len({e.command.id for e in envelopes(export)[1] if e.command.id is not None})
    forged = {
        "abandoned at the first command": with_tail(export, 0, abandoned),
        "abandoned half-way": with_tail(export, commands // 2, abandoned),
        "abandoned before the last command": with_tail(export, commands - 1, abandoned),
    }
    # another tail from the first cut (from the middle on) where the seat had another choice
    tails = (with_tail(export, cut, other_moves) for cut in range(commands // 2, commands))
    forged["the tail rewritten from half-way"] = next(tail for tail in tails if tail is not None)
    last = (with_tail(export, cut, other_moves) for cut in range(commands - 1, 0, -1))
    forged["the last possible command rewritten"] = next(tail for tail in last if tail is not None)
    assert all(data is not None for data in forged.values())
    return forged  # type: ignore[return-value]


def test_a_log_cut_short_or_rewritten_is_a_valid_match_refused_by_the_key_the_receipt_and_the_last_hash(export):
    header, chain = envelopes(export)
    match_id = msgspec.json.decode(header.charter, type=Charter).match_id
    last_version, last_hash = len(chain), msgspec.json.decode(entry_lines(export)[-1])["hash"]
    # the receipt the seat whose command ended the match was given, as the service computes it
    final_receipt = receipt(header.seed, match_id, last_version, last_hash)
    assert audit(export, anchors=Anchors(KEY, ((last_version, final_receipt),), last_hash)).receipts == 2
    refusals = 0
    for name, forged in rewritten_logs(export).items():
        assert audit(forged).result is not None, name  # whole and valid: the chain and rules alone pass it
        original_head = lines_of(export)[-1]
        for spelled, data in {
            "unsigned": forged,
            "signed by a forger": signed(forged, FORGER),
            "with the service's signature kept": file_of([*lines_of(forged), original_head]),
        }.items():
            for anchors in (Anchors(KEY), Anchors(receipts=((last_version, final_receipt),)),
                            Anchors(last_hash=last_hash)):
                failure = refused(data, anchors)
                assert failure.reason, (name, spelled, anchors)
                refusals += 1
        # the service's own signature over the real head never fits the forged log, key or not
        assert "signed head is not this log's" in refused(file_of([*lines_of(forged), original_head]), Anchors()).reason
    assert refusals == 5 * 3 * 3


def test_a_receipt_from_the_middle_refuses_a_tail_rewritten_after_it(export):
    header, chain = envelopes(export)
    match_id = msgspec.json.decode(header.charter, type=Charter).match_id
    hashes = [msgspec.json.decode(line)["hash"] for line in entry_lines(export)[1:]]
    forged = rewritten_logs(export)["the tail rewritten from half-way"]
    _, forged_chain = envelopes(forged)
    encode = msgspec.json.encode
    changed = next(v for v in range(1, len(chain) + 1)
                   if v > len(forged_chain) or encode(forged_chain[v - 1]) != encode(chain[v - 1]))
    kept = changed - 1  # the last entry the forgery left as it was
    # a receipt for an entry before the rewrite still holds; one for the first rewritten entry does not
    assert audit(forged, anchors=Anchors(receipts=((kept, receipt(header.seed, match_id, kept, hashes[kept - 1])),)))
    given = receipt(header.seed, match_id, changed, hashes[changed - 1])
    failure = refused(forged, Anchors(receipts=((changed, given),)))
    assert failure.version == changed and "rewritten" in failure.reason, str(failure)
    assert "not" in refused(export, Anchors(receipts=((changed, "0" * 64),))).reason  # a wrong receipt: refused
    beyond = refused(export, Anchors(receipts=((len(chain) + 1, given),)))
    assert "cut short" in beyond.reason


def test_every_edit_of_the_signature_line_is_refused(export):
    lines = lines_of(export)
    entries, head_line = lines[:-1], lines[-1]
    signature = msgspec.json.decode(head_line, type=ExportSignature)
    head = msgspec.json.decode(signature.head, type=Head)
    header, _ = envelopes(export)
    other_match = msgspec.structs.replace(head, match_id="0" * 16)
    forgeries = {
        # refused given the key: nothing then vouches for where the log ends
        "removed": (file_of(entries), Anchors(KEY)),
        "re-signed by a forger": (signed(export, FORGER), Anchors(KEY)),
        # refused by anyone: the signature no longer fits the head or the log
        "a version one short": (file_of([*entries, signature_line(FORGER, msgspec.structs.replace(
            head, version=head.version - 1))]), Anchors()),
        "another hash, signed by the service": (file_of([*entries, signature_line(SIGNER, msgspec.structs.replace(
            head, hash=digest(b"another")))]), Anchors()),
        "another match's head, signed by the service": (file_of([*entries, signature_line(SIGNER, other_match)]),
                                                        Anchors()),
        "another genesis": (file_of([*entries, signature_line(SIGNER, msgspec.structs.replace(
            head, genesis=digest(b"charter")))]), Anchors()),
        "the head's text re-spaced": (file_of([*entries, msgspec.json.encode(msgspec.structs.replace(
            signature, head=signature.head.replace(",", ", ")))]), Anchors()),
        "the signature of another head": (file_of([*entries, msgspec.json.encode(msgspec.structs.replace(
            signature, head=msgspec.json.encode(other_match).decode()))]), Anchors()),
        "the forger's key named": (file_of([*entries, msgspec.json.encode(msgspec.structs.replace(
            signature, key=msgspec.json.decode(signature_line(FORGER, head), type=ExportSignature).key))]),
                                   Anchors()),
        "moved after the header": (file_of([entries[0], head_line, *entries[1:]]), Anchors()),
        "doubled": (file_of([*lines, head_line]), Anchors()),
        "a field added": (file_of([*entries, head_line[:-1] + b',"by":"x"}']), Anchors()),
    }
    for name, (data, anchors) in forgeries.items():
        failure = refused(data, anchors)
        assert failure.line >= 1 and failure.reason, name
    assert header.seed  # the seed is revealed beside the signed head (the receipts' key)


def test_one_character_changed_in_the_signature_line_is_refused_there(export):
    start = export.rindex(b"\n", 0, len(export) - 1) + 1
    line = len(lines_of(export))
    for position in range(start, len(export) - 1):
        failure = refused(change_byte(export, position), Anchors())
        assert failure.line == line, (position, str(failure))
