"""Every error answers in one shape, ``{"error": "<a sentence in the page's language>"}``."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ..i18n import _, use_language
from .deps import language_of
from .tables import TableError


async def table_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TableError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def invalid(request: Request, exc: Exception) -> JSONResponse:
    """A malformed request (422), with each problem's place: ``seq: Input should be …``."""
    assert isinstance(exc, RequestValidationError)
    problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors())
    with use_language(language_of(request.query_params.get("lang"))):
        message = _("malformed request: {problems}").format(problems=problems)
    return JSONResponse({"error": message}, status_code=422)


def answer_errors_as_json(app: FastAPI) -> None:
    app.add_exception_handler(TableError, table_error)
    app.add_exception_handler(RequestValidationError, invalid)
