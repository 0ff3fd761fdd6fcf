"""The middlewares every request goes through: the security headers, the body's size limit, and
HEAD answered as GET."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import _, use_language
from .deps import request_language

MAX_BODY = 16 * 1024  # bytes: every legitimate request is far smaller

# The page runs only the site's own scripts and styles (no inline script, no style attribute),
# talks only to its own server, and is shown in no other site's frame.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors, for browsers that predate it
]


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every answer; a route that sets its own
    Content-Security-Policy (the API's documentation page) keeps it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _value in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuse a request body over ``MAX_BODY`` bytes (413) before anything reads it whole."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _too_large(scope, receive, send)
            return
        body = b""
        more = True
        while more:  # bodies are small: read it here, whole, up to the limit
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY:
                await _too_large(scope, receive, send)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class HeadAsGet:
    """Answer HEAD wherever GET is served (uptime checkers, link previews ask HEAD): the GET's
    status and headers, without its body. FastAPI's routes, unlike Starlette's, serve GET only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    with use_language(request_language(HTTPConnection(scope))):
        message = _("the request is too large")
    response = JSONResponse({"error": message}, status_code=413)
    await response(scope, receive, send)
