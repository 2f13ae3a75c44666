"""Security headers on every answer: no other site may frame a page of this server (the web client
acts with the visitor's seat tokens, kept in the browser), a browser runs only scripts and styles
from this server, takes each answer for the type it says, and sends no referrer.

The web client runs under POLICY: nothing inline, nothing from another host. The API docs page
(Swagger UI) has one inline script and style, allowed by a nonce made for each answer (`nonce`).
Litestar sets no such headers; a layered middleware (the `secure` package's, say) misses the answers
of paths with no route, and none makes a nonce per answer."""

from __future__ import annotations

import secrets

from litestar.types import Message, Scope

_NONCE_KEY = "csp_nonce"
_COMMON = "default-src 'self'; base-uri 'none'; object-src 'none'; form-action 'self'; frame-ancestors 'none'"
POLICY = _COMMON
# Swagger UI's stylesheet draws its icons as data: images
_DOCS_POLICY = _COMMON + "; script-src 'self' 'nonce-{0}'; style-src 'self' 'nonce-{0}'; img-src 'self' data:"
_FIXED = [
    (b"x-frame-options", b"DENY"),  # what browsers without frame-ancestors obey
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
_NAMES = {name for name, _ in _FIXED} | {b"content-security-policy"}


def nonce(scope: Scope) -> str:
    """This answer's nonce for its inline script and style, made on first use (the policy then names it)."""
    state = scope.setdefault("state", {})
    return state.setdefault(_NONCE_KEY, secrets.token_urlsafe(18))


async def secure(message: Message, scope: Scope) -> None:
    """A before_send hook, so that every answer has the headers: the handlers', the static files', and
    those of exception handlers and of paths with no route, which layered `response_headers` miss."""
    if message["type"] != "http.response.start":
        return
    made = scope.get("state", {}).get(_NONCE_KEY)
    policy = _DOCS_POLICY.format(made) if made else POLICY
    message["headers"] = [
        *(h for h in message.get("headers", ()) if h[0].lower() not in _NAMES),
        *_FIXED,
        (b"content-security-policy", policy.encode()),
    ]
