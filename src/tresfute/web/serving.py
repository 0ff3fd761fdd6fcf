"""How ``tresfute serve`` runs uvicorn: its options, and the bounds on a request's head.

How it works, at length: docs/design-web.md (web/serving.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..i18n import _, use_language
from .deps import chosen_language
from .middleware import SECURITY_HEADERS

REQUEST_LINE_LIMIT = 8 * 1024  # bytes: the address asked, its query included (nginx's default)
HEAD_LIMIT = 32 * 1024  # bytes: the request line and the headers together (nginx's 4 × 8 KB)
WS_MESSAGE_LIMIT = 64 * 1024  # bytes: a WebSocket message (the page's are under 1 KB)
HEAD_TIMEOUT = 20.0  # seconds for a whole head (Apache's first RequestReadTimeout; nginx waits 60)
LINGER = 2.0  # seconds a refused connection's late bytes are dropped before it closes
REASONS = {408: b"Request Timeout", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}

log = logging.getLogger("tresfute.web.serving")


class BoundedHead(HttpToolsProtocol):
    """uvicorn's httptools protocol, with a request's head bounded (:data:`HEAD_LIMIT`,
    :data:`REQUEST_LINE_LIMIT`); a head over the bound is answered with its status and
    ``{"error": sentence}``, and nothing reaches the application."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes = 0  # bytes received since the head began (between requests: 0)
        self._in_head = True
        self._head_size = 0  # the head's bytes as parsed: the request's address, its headers
        self._refused: int | None = None
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        """The head is not whole in time: refused (408), or closed if nothing came."""
        self._head_timer = None
        if self._refused is not None or self.transport.is_closing():
            return
        if self._head_bytes == 0:
            self.transport.close()
            return
        self._refused = 408
        self._refuse(408)

    def data_received(self, data: bytes) -> None:
        if self._refused is not None:
            return
        if self._in_head:
            if self._head_timer is None:  # a head begins (the next request on a kept connection)
                self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_too_slow)
            self._head_bytes += len(data)
        super().data_received(data)
        if self._refused is None and self._in_head and self._head_bytes > HEAD_LIMIT:
            self._refused = 431  # a header still being read (a request line that long was refused already)
        if self._refused is not None and not self.transport.is_closing():
            self._refuse(self._refused)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_size = 0

    def on_url(self, url: bytes) -> None:
        if self._refused is None:
            super().on_url(url)
            self._head_size += len(url)
            if len(self.url) > REQUEST_LINE_LIMIT:
                self._refused = 414

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._refused is None:
            super().on_header(name, value)
            self._head_size += len(name) + len(value) + 4  # ": " and the line's end
            if self._head_size > HEAD_LIMIT:
                self._refused = 431

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._stop_head_timer()
        if self._refused is None:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if self._refused is None:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._head_bytes, self._in_head = 0, True
        if self._refused is None:
            super().on_message_complete()

    def _refuse(self, status: int) -> None:
        """Answer ``status`` in the request's language (as far as its head was read), and close."""
        asked = None
        if status != 414:
            try:
                query = httptools.parse_url(self.url).query or b""
                asked = dict(part.split(b"=", 1) for part in query.split(b"&") if b"=" in part).get(b"lang")
            except httptools.HttpParserInvalidURLError:
                pass
        accept = next((v for n, v in self.headers or [] if n == b"accept-language"), None)
        language = chosen_language(
            asked.decode("latin-1") if asked else None,
            accept.decode("latin-1") if accept else None,
            os.environ.get("TRESFUTE_SERVE_LANG"),
        )
        with use_language(language):
            if status == 408:
                message = _("the request's head did not arrive within {n} seconds").format(n=int(HEAD_TIMEOUT))
            elif status == 414:
                message = _("the address asked is too long: at most {n} KB").format(n=REQUEST_LINE_LIMIT // 1024)
            else:
                message = _("the request's headers are too large: at most {n} KB together").format(n=HEAD_LIMIT // 1024)
        body = json.dumps({"error": message}, ensure_ascii=False).encode()
        head = [b"HTTP/1.1 %d %s\r\n" % (status, REASONS[status])]
        head += [name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers]
        head += [name + b": " + value + b"\r\n" for name, value in SECURITY_HEADERS]
        head.append(b"content-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n" % len(body))
        self.transport.write(b"".join(head) + body)
        # What the client still sends is read and dropped for a moment before the socket closes:
        # closed with unread bytes, it would be reset, and the client might never read the answer.
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)
        if status == 408:
            log.warning("a request's head too slow refused (408) from %s", (self.client or ("?",))[0])
        else:
            log.warning("a request's head over its bound refused (%d) from %s", status, (self.client or ("?",))[0])


def uvicorn_options(host: str, port: int) -> dict[str, Any]:
    """uvicorn's options for ``tresfute serve`` (the tests run the same)."""
    return {"host": host, "port": port, "log_level": "warning", "ws_max_size": WS_MESSAGE_LIMIT, "http": BoundedHead}
