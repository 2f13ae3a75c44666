"""Export the API's OpenAPI document: `python -m service.http.openapi_export [PATH]` (default openapi/openapi.json)."""

from __future__ import annotations

import json
import pathlib
import sys

DEFAULT_PATH = pathlib.Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def document() -> dict:
    """The OpenAPI document the API serves at /schema/openapi.json (no Redis needed to build it)."""
    from service.config import Settings

    from .app import create_app

    # the table's defaults, whatever this process's environment says: the document depends on none
    settings = Settings.from_environ({"REDIS_URL": "redis://localhost:6379/0"})
    return create_app(settings).openapi_schema.to_schema()


def render() -> str:
    """The document as committed: sorted keys, indent 2, a final newline (stable diffs)."""
    return json.dumps(document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = pathlib.Path(args[0]) if args else DEFAULT_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
