"""The archive store: where finished matches go when they leave Redis (services/projector/archiver.py).

Each archived match is four objects under ``matches/{first two hex of its id}/``: ``{id}.export.jsonl.gz``,
its export (``tavern-export/1``, gzip, no timestamp in the gzip header so that archiving twice writes the
same bytes), ``{id}.chat.jsonl.gz``, its table chat (``tavern-chat/1``: apart from the export, which
an audit checks byte for byte), ``{id}.reports.json.gz``, the reports of its chat's lines (the
moderators' alone), and ``{id}.meta.json``, its meta (what Redis held: game, seats, token hashes, ...),
how it ended and the SHA-256 and size of the export and of the chat. The meta object is written
last: it is the mark that the match is whole in the archive.

A directory (objects written to a temporary file, flushed and renamed into place) or an S3-compatible
bucket (boto3), whichever the operator names; neither: no archive (finished matches stay in Redis).
Every gateway and worker must see the same one: a gateway serves what any worker archived.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import secrets
from pathlib import Path
from typing import Any, Protocol


def export_name(match_id: str) -> str:
    return f"matches/{match_id[:2]}/{match_id}.export.jsonl.gz"


def chat_name(match_id: str) -> str:
    """The match's table chat (``tavern-chat/1``, docs/chat.md), beside its export and in no chain."""
    return f"matches/{match_id[:2]}/{match_id}.chat.jsonl.gz"


def reports_name(match_id: str) -> str:
    """The reports of its chat's lines, for the moderators alone (docs/chat.md): JSON, gzip."""
    return f"matches/{match_id[:2]}/{match_id}.reports.json.gz"


def meta_name(match_id: str) -> str:
    return f"matches/{match_id[:2]}/{match_id}.meta.json"


def tournament_name(tournament_id: str) -> str:
    """A finished tournament: its log and its tables' ranks (``tavern-tournament/1``, JSON, gzip)."""
    return f"tournaments/{tournament_id[:2]}/{tournament_id}.json.gz"


def hibernated_log_name(match_id: str, token: str) -> str:
    """A hibernated match's log, as an unsigned export (services/commands/hibernation.py), under the
    token of its snapshot: each hibernation writes its own objects, which no later one overwrites."""
    return f"hibernated/{match_id[:2]}/{match_id}.{token}.log.jsonl.gz"


def snapshot_name(match_id: str, token: str) -> str:
    """The rest of what Redis held of a hibernated match (meta, views, entropy, idempotency records)."""
    return f"hibernated/{match_id[:2]}/{match_id}.{token}.snapshot.json.gz"


def compress(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def decompress(data: bytes) -> bytes:
    return gzip.decompress(data)


class Archive(Protocol):
    async def put(self, name: str, data: bytes) -> None: ...

    async def get(self, name: str) -> bytes | None:
        """The object's bytes, None if there is none."""
        ...

    async def delete(self, name: str) -> None:
        """The object gone (nothing if there was none)."""
        ...

    def problem(self) -> str | None:
        """At start: None if this process can write here, else why not, in one line."""
        ...


def opened(directory: str | None, bucket: str | None, endpoint: str | None, prefix: str) -> Archive | None:
    """The archive the settings name (TAVERN_ARCHIVE_*), None if they name none."""
    if bucket:
        return S3Archive(bucket, endpoint, prefix)
    return DirectoryArchive(directory) if directory else None


class DirectoryArchive:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def _put(self, name: str, data: bytes) -> None:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        # a reader (or a worker killed mid-write) never sees a partial object: write aside, then rename
        partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
        with open(partial, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, path)

    def _get(self, name: str) -> bytes | None:
        try:
            return (self.root / name).read_bytes()
        except FileNotFoundError:
            return None

    async def put(self, name: str, data: bytes) -> None:
        await asyncio.to_thread(self._put, name, data)

    async def get(self, name: str) -> bytes | None:
        return await asyncio.to_thread(self._get, name)

    async def delete(self, name: str) -> None:
        await asyncio.to_thread((self.root / name).unlink, missing_ok=True)

    def problem(self) -> str | None:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            probe = self.root / f".probe.{secrets.token_hex(4)}"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as error:
            return f"the archive directory {self.root} is not writable here ({error.strerror})"
        return None


class S3Archive:
    """An S3-compatible bucket; credentials and region as boto3 finds them (AWS_* variables)."""

    def __init__(self, bucket: str, endpoint_url: str | None = None, prefix: str = "") -> None:
        import boto3  # only where an operator configures S3 (the ``s3`` extra)
        from botocore.config import Config

        self.bucket = bucket
        self.prefix = prefix
        config = Config(connect_timeout=5, read_timeout=30, retries={"max_attempts": 3, "mode": "standard"})
        self.client: Any = boto3.client("s3", endpoint_url=endpoint_url, config=config)
        self._missing = self.client.exceptions.NoSuchKey

    def _get(self, name: str) -> bytes | None:
        try:
            body: bytes = self.client.get_object(Bucket=self.bucket, Key=self.prefix + name)["Body"].read()
            return body
        except self._missing:
            return None

    async def put(self, name: str, data: bytes) -> None:
        await asyncio.to_thread(self.client.put_object, Bucket=self.bucket, Key=self.prefix + name, Body=data)

    async def get(self, name: str) -> bytes | None:
        return await asyncio.to_thread(self._get, name)

    async def delete(self, name: str) -> None:  # S3 answers a missing key's delete as done
        await asyncio.to_thread(self.client.delete_object, Bucket=self.bucket, Key=self.prefix + name)

    def problem(self) -> str | None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            self.client.head_bucket(Bucket=self.bucket)
        except (BotoCoreError, ClientError) as error:
            where = self.client.meta.endpoint_url
            return f"the archive bucket {self.bucket!r} at {where} cannot be reached: {error}"
        return None
