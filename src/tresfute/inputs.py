"""One strict reading of the files people and programs give (game records, paper sheets).

A file is bounded in size before it is parsed, then parsed and checked in one step by
pydantic in strict mode (a number is a JSON number, text is a JSON string, no unknown field;
its JSON parser bounds the nesting depth). A refusal is one translatable sentence
(:class:`~tresfute.rules.reasons.Reason`) naming the field and what was expected.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .i18n import N_
from .rules import SPECS
from .rules.reasons import VERBATIM, Listing, OneOf, Reason, ReasonError

Model = TypeVar("Model", bound=BaseModel)

_PLACE = re.compile(r"at line ([0-9]+) column ([0-9]+)", re.ASCII)  # where pydantic's JSON parser stopped
_BOM = "\ufeff"  # a byte-order mark some editors write at the start of a UTF-8 file


def known_game(game: str, error: type[ReasonError]) -> str:
    """``game`` if it names one of the games, else ``error`` saying which names are."""
    if game not in SPECS:
        raise error(Reason("the game must be one of {games}", games=", ".join(SPECS)))
    return game


def unreadable(path: object, exc: OSError) -> Reason:
    """Why a file cannot be read, in our own words for the common cases (the system's text,
    English whatever the language, only for the others)."""
    if isinstance(exc, FileNotFoundError | NotADirectoryError):
        return Reason("cannot read {path}: there is no such file", path=path)
    if isinstance(exc, IsADirectoryError):
        return Reason("cannot read {path}: it is a folder, not a file", path=path)
    if isinstance(exc, PermissionError):
        return Reason("cannot read {path}: permission denied", path=path)
    return Reason("cannot read {path}: {reason}", path=path, reason=exc.strerror or exc)


def field_name(loc: tuple[int | str, ...]) -> str:
    """Where a problem lies, as a JSON path: ``moves[3]``, ``result.scores[0].total``; a key
    the file made up is quoted with escapes when it holds what is not printable (a line break
    would split the one-line error)."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
            continue
        name = part if part.isprintable() and part.strip() == part and part else ascii(part)
        text += f".{name}" if text else name
    return text


def alternatives(expected: object) -> object:
    """The values a field takes, as pydantic lists them (``'a', 'b' or 'c'``: its "or" in
    English), as words a front end says in its own language (``text.explain``)."""
    head, joiner, last = str(expected).rpartition(" or ")
    if not joiner:
        return str(expected)
    return OneOf((Listing(tuple(head.split(", "))), last))


def problem(exc: ValidationError) -> Reason:
    """The first problem pydantic found, as one sentence naming the field."""
    error = exc.errors()[0]
    kind, ctx = error["type"], error.get("ctx") or {}
    field = field_name(tuple(error["loc"]))
    if kind == "json_invalid":
        detail = str(ctx.get("error", ""))
        if "recursion limit" in detail:
            return Reason("the file is nested too deeply to be what it claims")
        # The parser's own words are English ("EOF while parsing an object"): only where it
        # stopped is said, in the reader's language.
        place = _PLACE.search(detail)
        if place is None:
            return Reason("the file is not valid JSON")
        if detail.startswith("number out of range"):  # thousands of digits: no field takes that
            return Reason("the file holds a number too long to be read (line {line})", line=place[1])
        if detail.startswith("EOF while parsing"):  # a file cut short (a copy that stopped)
            return Reason("the file is not valid JSON: it ends too soon (line {line})", line=place[1])
        return Reason("the file is not valid JSON (line {line}, column {column})", line=place[1], column=place[2])
    if kind == "value_error" and isinstance(ctx.get("error"), ReasonError):
        reason = ctx["error"].reason
        return Reason("{field}: {reason}", field=field, reason=reason) if field else reason
    if not field:
        if kind in ("model_type", "dict_type"):
            return Reason("the file must hold one JSON object, in braces")
        return Reason(VERBATIM, text=str(error["msg"]))
    templates = {
        "int_type": N_("{field} must be a whole number (a JSON number without quotes)"),
        "string_type": N_("{field} must be text (a JSON string, in quotes)"),
        "list_type": N_("{field} must be a list (a JSON array, in brackets)"),
        "dict_type": N_("{field} must be an object (JSON braces)"),
        "model_type": N_("{field} must be an object (JSON braces)"),
        "missing": N_("{field} is missing"),
        "extra_forbidden": N_("{field} is not a known field"),
        "none_required": N_("{field} must be null"),
    }
    if kind in templates:
        return Reason(templates[kind], field=field)
    if kind == "literal_error":
        return Reason("{field} must be one of {expected}", field=field, expected=alternatives(ctx.get("expected", "")))
    if kind == "too_long":
        return Reason("{field} holds at most {most} items", field=field, most=ctx.get("max_length", ""))
    if kind == "too_short":
        return Reason("{field} holds at least {least} items", field=field, least=ctx.get("min_length", ""))
    if kind == "string_too_long":
        return Reason("{field} is at most {most} characters long", field=field, most=ctx.get("max_length", ""))
    if kind in ("greater_than_equal", "less_than", "less_than_equal", "greater_than"):
        return Reason("{field} is out of range", field=field)
    return Reason("{field}: {message}", field=field, message=str(error["msg"]))


Titled = Callable[[Reason], Reason]  # the problem, said of the whole input ("not a valid record: ...")


def _too_large(max_bytes: int) -> Reason:
    return Reason("the file is too large: at most {most} bytes", most=max_bytes)


def read_file(path: Path, max_bytes: int, error: type[ReasonError], title: Titled) -> bytes:
    """The bytes of the file at ``path``, refused with ``error`` when there are more than
    ``max_bytes``: a file's size is looked at before it is read, and no more than
    ``max_bytes + 1`` bytes are ever read, so that a device or a pipe that does not end
    (``/dev/zero``) is refused too, without being held in memory."""
    try:
        with open(path, "rb") as file:
            info = os.fstat(file.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
                raise error(title(_too_large(max_bytes)))
            data = file.read(max_bytes + 1)
    except OSError as exc:
        raise error(unreadable(path, exc)) from None
    if len(data) > max_bytes:
        raise error(title(_too_large(max_bytes)))
    return data


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> None:
    """Raises :class:`_DuplicateKey` when an object gives a key twice (JSON parsers keep the last
    one silently, and a file that says two things is not what its writer meant)."""
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen.add(key)


def duplicate_key(text: str | bytes) -> str | None:
    """The first key given twice in one of the objects of a JSON text (a file, a request's body),
    if any. Only the keys are looked at (numbers are not converted); a file that is not JSON is left to pydantic's
    parser, which says where."""
    try:
        json.loads(text, object_pairs_hook=_unique_keys, parse_int=len, parse_float=len, parse_constant=len)
    except _DuplicateKey as duplicate:
        return duplicate.key
    except (ValueError, RecursionError):
        return None
    return None


def read_json(model: type[Model], text: str | bytes, max_bytes: int, error: type[ReasonError], title: Titled) -> Model:
    """``text`` read as ``model``, strictly; raises ``error`` with the first problem. A
    byte-order mark at the start (UTF-8's, as some editors write it) is skipped; a key given
    twice in an object is refused."""
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > max_bytes:
        raise error(title(_too_large(max_bytes)))
    text = text.removeprefix(_BOM.encode()) if isinstance(text, bytes) else text.removeprefix(_BOM)
    if not (text.strip(b" \t\r\n") if isinstance(text, bytes) else text.strip(" \t\r\n")):  # JSON's blanks
        raise error(title(Reason("the file is empty")))
    duplicate = duplicate_key(text)  # first: what follows reads only the last of the two
    if duplicate is not None:
        raise error(title(Reason("the key {key} is given twice in the same object", key=repr(duplicate))))
    try:
        return model.model_validate_json(text, strict=True)
    except ValidationError as exc:
        raise error(title(problem(exc))) from None


def read_data(model: type[Model], data: Any, error: type[ReasonError], title: Titled) -> Model:
    """Parsed JSON data (dicts, lists, numbers, text) read as ``model``, strictly."""
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as exc:
        raise error(title(problem(exc))) from None


def rule_setting(text: str) -> tuple[str, bool] | None:
    """A command line's ``--rule NAME=true|false`` (any case, spaces around either part) as the
    rules option's name and value; None for anything else, which each command line refuses in
    its own words. Whether the game has the option is checked once the game is known
    (``rules.game_rules``)."""
    name, equals, value = text.partition("=")
    value = value.strip().lower()
    if not equals or value not in ("true", "false"):
        return None
    return name.strip(), value == "true"
