"""Generate the API's OpenAPI document from every HTTP function's resolver in the registry.

`python -m infra.openapi` writes it where the openapi function serves it from;
`python -m infra.openapi --check` exits 1 when the checked-in copy is out of date.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from functions.openapi.handler import DOCUMENT
from infra.registry import FUNCTIONS


def build() -> str:
    merged: dict[str, Any] = {}
    for function in FUNCTIONS:
        if not function.http:
            continue
        part = json.loads(function.app().get_openapi_json_schema())
        if not merged:
            merged = part
            continue
        merged["paths"].update(part.get("paths", {}))
        schemas = merged.setdefault("components", {}).setdefault("schemas", {})
        for name, schema in part.get("components", {}).get("schemas", {}).items():
            if schemas.setdefault(name, schema) != schema:  # one name, two models: a client sees one
                raise ValueError(f"two API models are named {name!r} ({function.module}): rename one")
    return json.dumps(merged, indent=2, sort_keys=True) + "\n"


def main() -> int:
    document = build()
    if "--check" in sys.argv:
        if not DOCUMENT.exists() or DOCUMENT.read_text(encoding="utf-8") != document:
            print(f"{DOCUMENT} is out of date: run `make openapi` and commit it.", file=sys.stderr)
            return 1
        print("openapi.json is up to date")
        return 0
    DOCUMENT.write_text(document, encoding="utf-8")
    print(f"wrote {DOCUMENT} ({len(json.loads(document)['paths'])} paths)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
