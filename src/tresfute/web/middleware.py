"""The middlewares every request goes through: the security headers, the caches told what is
private, the body's checks (its size, its encoding, its length, its keys), and HEAD answered as GET."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import _, use_language
from ..inputs import duplicate_key
from .deps import request_language
from .problems import sentence

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


class HttpMiddleware:
    """An ASGI middleware for the HTTP requests it :meth:`concerns` (by default every one); the
    others (WebSocket, lifespan) pass through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def concerns(self, scope: Scope) -> bool:
        return bool(scope["type"] == "http")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.concerns(scope):
            await self.handle(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class SecurityHeaders(HttpMiddleware):
    """Add :data:`SECURITY_HEADERS` to every answer; a route that sets its own
    Content-Security-Policy (the API's documentation page) keeps it."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _value in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class PrivateAnswers(HttpMiddleware):
    """Tell caches what is private. An API answer to a request that carries a secret (a seat's
    token, a player's secret) depends on it: ``Cache-Control: private, no-store`` unless the
    route says otherwise, as do those of the player's own pages (:data:`PRIVATE_PATHS`), with or
    without it. Every API answer names in ``Vary`` what it may depend on besides its address:
    the secrets (``/api/players/me`` is one address for every player), the language's cookie
    and ``Accept-Language``."""

    def concerns(self, scope: Scope) -> bool:
        return bool(scope["type"] == "http" and scope["path"].startswith("/api/"))

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        private = scope["path"].startswith(PRIVATE_PATHS) or any(
            name in SECRET_HEADERS for name, _value in scope["headers"]
        )

        async def told(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=list(message.get("headers", ())))
                if private and "cache-control" not in headers:
                    headers["cache-control"] = PRIVATE
                for name in VARY:
                    headers.add_vary_header(name)
                message = {**message, "headers": headers.raw}
            await send(message)

        await self.app(scope, receive, told)


PRIVATE = "private, no-store"
SECRET_HEADERS = frozenset({b"x-seat-token", b"x-player-token"})
PRIVATE_PATHS = ("/api/players/me", "/api/challenge/history")  # a player's own, whoever asks
VARY = ("X-Seat-Token", "X-Player-Token", "Cookie", "Accept-Language")


class BodyLimit(HttpMiddleware):
    """A request's body, checked before anything reads it: one over ``MAX_BODY`` bytes is
    refused (413) before it is read whole; one with a ``Content-Encoding`` (the server decodes
    none) 415; one shorter or longer than its ``Content-Length`` says 400, and one whose client
    went away before it was whole is not answered; JSON that gives a key twice in an object 422
    (a parser would keep the last one silently, as ``records`` refuses for files). A refused
    request reaches no route: nothing is done."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        encoding = headers.get(b"content-encoding", b"identity").strip().lower()
        if encoding != b"identity":
            await _refuse(scope, receive, send, 415, {"Accept-Encoding": "identity"})
            return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _refuse(scope, receive, send, 413)
            return
        body = b""
        more = True
        while more:  # bodies are small: read it here, whole, up to the limit
            message = await receive()
            if message["type"] != "http.request":  # the client went away: nobody to answer, nothing done
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY:
                await _refuse(scope, receive, send, 413)
                return
        if length is not None and len(body) != int(length):
            await _refuse(scope, receive, send, 400)
            return
        if body and (key := duplicate_key(body)) is not None:
            await _refuse(scope, receive, send, 422, key=key)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class HeadAsGet(HttpMiddleware):
    """Answer HEAD wherever GET is served (uptime checkers, link previews ask HEAD): the GET's
    status and headers, without its body. FastAPI's routes, unlike Starlette's, serve GET only."""

    def concerns(self, scope: Scope) -> bool:
        return bool(scope["type"] == "http" and scope["method"] == "HEAD")

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, headers: dict[str, str] | None = None, key: str = ""
) -> None:
    """Answer a body refused by :class:`BodyLimit`, in the request's language."""
    with use_language(request_language(HTTPConnection(scope))):
        if status == 413:
            message = _("the request is too large")
        elif status == 415:
            message = _("the request's body is sent as it is: this server decodes no Content-Encoding")
        elif status == 400:
            message = _("the request's body does not have the length its Content-Length header says")
        else:
            problem = {"type": "duplicate_key", "loc": (), "ctx": {"key": repr(key)}}
            message = _("malformed request: {problems}").format(problems=sentence(problem))
    response = JSONResponse({"error": message}, status_code=status, headers=headers)
    await response(scope, receive, send)
