"""The API docs page (/schema) with Swagger UI served from this server: its scripts, styles and icon
come from the `swagger-ui-py` package (pinned in pyproject.toml), never from another host; its one
inline script and style carry the answer's nonce (headers.py), the only inline code its policy allows."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from litestar import Request
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router

from .headers import nonce

ASSETS = "/schema/assets"
_FILES = ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css", "favicon-32x32.png")


def _static_dir() -> Path:
    spec = importlib.util.find_spec("swagger_ui")  # not imported: only its files are needed
    assert spec is not None and spec.submodule_search_locations, "swagger-ui-py is not installed"
    return Path(next(iter(spec.submodule_search_locations))) / "static"


class NoncedSwagger(SwaggerRenderPlugin):
    """Litestar's Swagger UI page, its inline <script> and <style> marked with the answer's nonce
    (Litestar's template has no place for one: the tags are marked in the rendered page)."""

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        mark = f'nonce="{nonce(request.scope)}"'.encode()
        page = super().render(request, openapi_schema)
        return page.replace(b"<script type=", b"<script " + mark + b" type=").replace(
            b"<style>", b"<style " + mark + b">"
        )


def swagger_ui() -> SwaggerRenderPlugin:
    """Swagger UI at /schema, its assets at /schema/assets."""
    return NoncedSwagger(
        path="/",
        js_url=f"{ASSETS}/swagger-ui-bundle.js",
        css_url=f"{ASSETS}/swagger-ui.css",
        standalone_preset_js_url=f"{ASSETS}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/png' href='{ASSETS}/favicon-32x32.png'>",
    )


def swagger_assets() -> Router:
    """The Swagger UI files, cached by browsers for a day (they change only with the package)."""
    from litestar.datastructures import CacheControlHeader

    return create_static_files_router(
        path=ASSETS,
        directories=[_static_dir()],
        include_in_schema=False,
        name="swagger_assets",
        cache_control=CacheControlHeader(max_age=86400),
    )
