"""Every error answers in one shape, ``{"error": "<a sentence in the page's language>"}``: a
request refused by the host, a malformed one, an address with nothing behind it (static files
included), a method not served, the database away, a failure of the server."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ..i18n import _, use_language
from .deps import request_language
from .middleware import SECURITY_HEADERS
from .problems import sentences
from .store import StoreUnavailableError
from .tables import TableError


def _language(request: Request) -> str:
    return request_language(request)


async def table_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TableError)
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=getattr(exc, "headers", None))


async def invalid(request: Request, exc: Exception) -> JSONResponse:
    """A malformed request (422), each problem a sentence naming its field: ``seq must be a whole number``."""
    assert isinstance(exc, RequestValidationError)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    unread = kind != "application/json" and not kind.endswith("+json")  # FastAPI reads no other body
    with use_language(_language(request)):
        if unread and any(tuple(problem["loc"][:1]) == ("body",) for problem in exc.errors()):
            message = _("send the request's body as JSON (Content-Type: application/json)")
        else:
            message = _("malformed request: {problems}").format(problems=sentences(exc.errors(), skip=1))
    return JSONResponse({"error": message}, status_code=422)


def unavailable_message() -> str:
    return _("the games' database cannot be reached just now: nothing was changed, try again in a moment")


async def unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The database is away (503): the request changed nothing and may be sent again."""
    with use_language(_language(request)):
        message = unavailable_message()
    return JSONResponse({"error": message}, status_code=503, headers={"Retry-After": "5"})


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own refusals (no such address or file, a method not served)."""
    assert isinstance(exc, HTTPException)
    with use_language(_language(request)):
        if exc.status_code == 404:
            message = _("there is nothing at this address")
        elif exc.status_code == 405:
            message = _("this address does not answer this method")
        elif exc.status_code == 400:  # a body that cannot be read (not UTF-8, a broken form)
            message = _("the request's body cannot be read: send JSON, in UTF-8")
        else:
            message = str(exc.detail)
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def failed(request: Request, exc: Exception) -> JSONResponse:
    """A fault of the server's (logged by the server): said in the same shape. Starlette answers
    it outside every middleware, so the security headers are set here."""
    with use_language(_language(request)):
        message = _("the server failed to answer: try again in a moment")
    headers = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}
    return JSONResponse({"error": message}, status_code=500, headers=headers)


def answer_errors_as_json(app: FastAPI) -> None:
    app.add_exception_handler(TableError, table_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(StoreUnavailableError, unavailable)
    app.add_exception_handler(Exception, failed)
