"""Validating answers against the published /openapi.json with jsonschema: a component by name, or
the schema an operation declares for a status, both resolved through a registry holding the document."""

from __future__ import annotations

from collections import Counter
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

URI = "urn:tavern:openapi"


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


class Published:
    """The document's schemas, and how many instances each has validated."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.registry = Registry().with_resource(URI, Resource(document, specification=DRAFT202012))
        self.validators: dict[str, Draft202012Validator] = {}
        self.counts: Counter[str] = Counter()

    def _check(self, pointer: str, instance: Any, label: str) -> None:
        validator = self.validators.get(pointer)
        if validator is None:
            validator = Draft202012Validator({"$ref": f"{URI}#{pointer}"}, registry=self.registry)
            self.validators[pointer] = validator
        validator.validate(instance)
        self.counts[label] += 1

    def component(self, name: str, instance: Any) -> None:
        self._check(f"/components/schemas/{_escape(name)}", instance, name)

    def answer(self, method: str, path: str, status: int, instance: Any, media: str = "application/json") -> None:
        """``instance`` against the schema the operation declares for ``status`` (declared, or a KeyError)."""
        declared = self.document["paths"][path][method]["responses"][str(status)]["content"][media]
        assert "schema" in declared
        parts = ["paths", path, method, "responses", str(status), "content", media, "schema"]
        self._check("/" + "/".join(_escape(part) for part in parts), instance, f"{method.upper()} {path} {status}")
