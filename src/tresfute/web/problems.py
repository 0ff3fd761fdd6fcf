"""A malformed request's problems as sentences in the player's language, each naming the field:
pydantic's own messages are technical English (``Input should be a valid integer``), so each
kind of problem a request can have is said here through the catalogue."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..i18n import N_, _, ngettext
from ..inputs import alternatives
from ..rules.reasons import VERBATIM, Reason
from ..text import explain

# pydantic's error type -> the sentence (its context's values fill the braces).
_SENTENCES = {
    "missing": N_("{field} is missing"),
    "extra_forbidden": N_("{field} is not a field of this request"),
    "string_type": N_("{field} must be text"),
    "string_pattern_mismatch": N_("{field} is not written as expected"),
    "int_type": N_("{field} must be a whole number"),
    "int_parsing": N_("{field} must be a whole number"),
    "int_from_float": N_("{field} must be a whole number"),
    "bool_type": N_("{field} must be true or false"),
    "bool_parsing": N_("{field} must be true or false"),
    "greater_than_equal": N_("{field} must be at least {ge}"),
    "greater_than": N_("{field} must be more than {gt}"),
    "less_than_equal": N_("{field} must be at most {le}"),
    "less_than": N_("{field} must be less than {lt}"),
    "list_type": N_("{field} must be a list"),
    "literal_error": N_("{field} must be one of {expected}"),
    "enum": N_("{field} must be one of {expected}"),
    "model_type": N_("{field} must be an object"),
    "dict_type": N_("{field} must be an object"),
    "model_attributes_type": N_("{field} must be an object"),
    "union_tag_not_found": N_("{field} needs a field {discriminator}"),
    "union_tag_invalid": N_("{field}: {discriminator} must be one of {expected_tags}, not '{tag}'"),
    "json_invalid": N_("the message is not valid JSON"),
    "json_type": N_("the message is not valid JSON"),
    "string_unicode": N_("{field} must be text"),  # a lone surrogate ("\\ud800")
    "int_parsing_size": N_("{field} must be a whole number"),
    # not pydantic's: a key given twice in an object (middleware.BodyLimit, models.Strict)
    "duplicate_key": N_("the key {key} is given twice in the same object"),
}


def _field(location: Iterable[Any]) -> str:
    place = ".".join(str(part) for part in location)
    return place or _("the message")


def _length(kind: str, n: int) -> str | None:
    """A bound on a length, of text or of a list, its noun agreeing with ``n`` (None: another kind)."""
    if kind == "string_too_short":
        return ngettext("{field} needs at least {n} character", "{field} needs at least {n} characters", n)
    if kind == "string_too_long":
        return ngettext("{field} takes at most {n} character", "{field} takes at most {n} characters", n)
    if kind == "too_short":
        return ngettext("{field} needs at least {n} entry", "{field} needs at least {n} entries", n)
    if kind == "too_long":
        return ngettext("{field} takes at most {n} entry", "{field} takes at most {n} entries", n)
    return None


def sentence(problem: Mapping[str, Any], skip: int = 0) -> str:
    """One problem (an item of pydantic's ``errors()``) as a sentence; ``skip`` leaves out the
    first parts of its location (FastAPI's ``body``, ``header``)."""
    field = _field(problem["loc"][skip:])
    context = {key: value for key, value in (problem.get("ctx") or {}).items() if isinstance(value, str | int)}
    n = context.get("min_length", context.get("max_length"))
    length = _length(problem["type"], n) if isinstance(n, int) else None
    if length is not None:
        return length.format(field=field, n=n)
    template = _SENTENCES.get(problem["type"])
    if problem["type"] == "json_invalid" and str(context.get("error", "")).startswith("recursion limit"):
        template = N_("the message is nested too deeply")  # pydantic's parser stops at 200 levels
    if template is None:  # a kind no request was seen to have: said without pydantic's English
        template = N_("{field} is not valid")
    if "expected" in context:  # pydantic's list of the values, joined by its English "or"
        context["expected"] = explain(Reason(VERBATIM, text=alternatives(context["expected"])))
    return _(template).format(field=field, **context)


def sentences(problems: Iterable[Mapping[str, Any]], skip: int = 0) -> str:
    return "; ".join(sentence(problem, skip) for problem in problems)
