"""Why a move is refused, as a message template and its parameters: translatable, and no I/O.

The rules write each reason in English as a template with named fields,
``Reason("the {die} die is not on the platter", die=Named("die", "y", "yellow"))``. ``str()``
reads it in English (what library users see in ``str(error)``); front ends translate the
template through gettext and each word in it (a die, an area, a bonus...) with
``tresfute.text.explain``. ``scripts/translations.py`` extracts every ``Reason("…")`` template
into the catalogue, so the reasons are translated like any other player-facing text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

NamedKind = Literal["die", "area", "where", "bonus", "source", "game", "action"]


@dataclass(frozen=True, slots=True)
class Named:
    """A word of a reason that a front end names in its own language: a die or area letter,
    where a die lies, a bonus, where a bonus came from, the game (by its id), or an action
    (``ActionKind``'s value)."""

    kind: NamedKind
    key: object
    english: str

    def __str__(self) -> str:
        return self.english


@dataclass(frozen=True, slots=True)
class OneOf:
    """Alternatives, read "a or b"."""

    items: tuple[object, ...]

    def __str__(self) -> str:
        return " or ".join(map(str, self.items))


@dataclass(frozen=True, slots=True)
class Listing:
    """Several items, read "a, b"."""

    items: tuple[object, ...]

    def __str__(self) -> str:
        return ", ".join(map(str, self.items))


@dataclass(frozen=True, slots=True)
class Plural:
    """A count with its words, in the singular or the plural as the count asks: ``singular`` and
    ``plural`` are English templates with ``{n}`` (read through ``ngettext`` by the front ends)."""

    singular: str
    plural: str
    n: int

    def __str__(self) -> str:
        return (self.singular if self.n == 1 else self.plural).format(n=self.n)


class Reason:
    """An English message template (marked for translation) and the values of its fields."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**{k: str(v) for k, v in self.params.items()})

    def __repr__(self) -> str:
        return f"Reason({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)


VERBATIM = "{text}"  # a reason given as plain text: shown as it is


class ReasonError(ValueError):
    """A refusal with its reason: ``str()`` in English, ``reason`` for front ends to translate."""

    def __init__(self, reason: Reason | str) -> None:
        self.reason = reason if isinstance(reason, Reason) else Reason(VERBATIM, text=reason)
        super().__init__(str(self.reason))
