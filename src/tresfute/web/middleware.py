"""The middlewares every request goes through: the body's size limit, and HEAD answered as GET."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import _

MAX_BODY = 16 * 1024  # bytes: every legitimate request is far smaller


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
    response = JSONResponse({"error": _("the request is too large")}, status_code=413)
    await response(scope, receive, send)
