"""Validating answers against the published /openapi.json with jsonschema: a component by name, or
the schema an operation declares for a status, both resolved through a registry holding the document.
Closed while it checks: every object schema that names its properties and leaves the others open
takes ``additionalProperties: false``, so an answer with a field the contract does not declare fails."""

from __future__ import annotations

from collections import Counter
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema._keywords import oneOf
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

URI = "urn:tavern:openapi"


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _discriminated_one_of(validator: Any, branches: list, instance: Any, schema: dict[str, Any]) -> Any:
    """``oneOf`` as OpenAPI reads a ``discriminator`` beside it: the instance's tag names its one
    branch (plain JSON Schema tries all forty events of a game, each failure a pile of errors)."""
    discriminator = schema.get("discriminator")
    if discriminator is None or not isinstance(instance, dict) or discriminator["propertyName"] not in instance:
        yield from oneOf(validator, branches, instance, schema)
        return
    tag = instance[discriminator["propertyName"]]
    target = discriminator["mapping"].get(tag) if isinstance(tag, str) else None
    if target is None:
        yield ValidationError(f"{tag!r} is not one of the tags {sorted(discriminator['mapping'])}")
    else:
        yield from validator.descend(instance, {"$ref": target})


Discriminating = validators.extend(Draft202012Validator, {"oneOf": _discriminated_one_of})


def closed(node: Any) -> Any:
    """``node`` with ``additionalProperties: false`` on each schema that lists ``properties`` and says
    nothing of others (one composed with anyOf/oneOf/allOf aside: its branches name the rest)."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: closed(value) for key, value in node.items()}
    composed = {"anyOf", "oneOf", "allOf"} & set(node)
    if isinstance(node.get("properties"), dict) and "additionalProperties" not in node and not composed:
        out["additionalProperties"] = False
    return out


class Published:
    """The document's schemas, and how many instances each has validated. ``discriminating``:
    oneOf with a discriminator as OpenAPI reads it (the branch its tag names); else plain JSON Schema."""

    def __init__(self, document: dict[str, Any], discriminating: bool = True) -> None:
        self.document = document
        self.kind = Discriminating if discriminating else Draft202012Validator
        checked = {**document, "paths": closed(document["paths"]), "components": closed(document["components"])}
        self.registry = Registry().with_resource(URI, Resource(checked, specification=DRAFT202012))
        self.validators: dict[str, Any] = {}
        self.counts: Counter[str] = Counter()

    def _check(self, pointer: str, instance: Any, label: str) -> None:
        validator = self.validators.get(pointer)
        if validator is None:
            validator = self.kind({"$ref": f"{URI}#{pointer}"}, registry=self.registry)
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
