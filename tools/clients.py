"""What the client packages (clients/) take from the contract, made again from the service's own
/openapi.json: `make clients` (python -m tools.clients). tests/service/contract/test_*_client.py
hold the packages to it.

- clients/typescript/src/api.ts: openapi-typescript's types, generated with its default settings;
- each package's version: the API's (``info.version``) as a semantic version, and ``API_VERSION``.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from services.gateway import openapi

ROOT = Path(__file__).resolve().parents[1]
TYPESCRIPT = ROOT / "clients" / "typescript"
PYTHON = ROOT / "clients" / "python"
TYPES = TYPESCRIPT / "src" / "api.ts"
# where each package says its version (a regex whose one group is the version) and the API's
VERSIONS = {
    TYPESCRIPT / "package.json": (r'^  "version": "([^"]+)"', "package"),
    TYPESCRIPT / "src" / "client.ts": (r'^export const API_VERSION = "([^"]+)";', "api"),
    PYTHON / "pyproject.toml": (r'^version = "([^"]+)"', "package"),
    PYTHON / "src" / "tavern_games_client" / "__init__.py": (r'^API_VERSION = "([^"]+)"', "api"),
}


def package_version(document: dict[str, Any]) -> str:
    """The packages' version: the API's, as major.minor.patch (the API's "1" is 1.0.0)."""
    parts = str(document["info"]["version"]).split(".")
    return ".".join([*parts, "0", "0"][:3])


def versions(document: dict[str, Any]) -> dict[Path, str]:
    """Each file's version as it must be for ``document``."""
    wanted = {"package": package_version(document), "api": str(document["info"]["version"])}
    return {path: wanted[kind] for path, (_, kind) in VERSIONS.items()}


def typescript_types(document: dict[str, Any]) -> str:
    """openapi-typescript's output for ``document``, with its default settings (no flag). The
    components sorted by name: the generator writes them in the document's order, which a schema
    built from a set leaves to the process's hash seed."""
    generator = TYPESCRIPT / "node_modules" / ".bin" / "openapi-typescript"
    schemas = document["components"]["schemas"]
    document = {**document, "components": {**document["components"], "schemas": dict(sorted(schemas.items()))}}
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "openapi.json", Path(folder) / "api.ts"
        source.write_text(json.dumps(document))
        done = subprocess.run([generator, source, "-o", target], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(done.stdout + done.stderr)
        return target.read_text()


def main() -> None:
    document = openapi.document()
    TYPES.write_text(typescript_types(document))
    for path, version in versions(document).items():
        text = path.read_text()
        found = re.search(VERSIONS[path][0], text, re.MULTILINE)
        assert found is not None, f"no version in {path}"
        path.write_text(text[: found.start(1)] + version + text[found.end(1) :])
    print(f"{TYPES.relative_to(ROOT)} generated; the packages at version {package_version(document)}")


if __name__ == "__main__":
    main()
