"""What requests carry: the JSON bodies and the WebSocket's messages, read strictly (unknown
fields refused, a number must be a JSON number, a key given twice in an object refused), and the
tokens' shape."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Generic, Literal, Self, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..bots import BOTS
from ..i18n import LANGUAGES
from ..inputs import duplicate_key
from ..rules import SPECS

Language = Literal[LANGUAGES]  # type: ignore[valid-type]  # tresfute.i18n's one list
Token = Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
TOKEN: TypeAdapter[str] = TypeAdapter(Token)
JSON_OBJECT: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
# A number is a JSON number and a flag true or false: "0" or 1 for a flag is refused, not read loosely.
Seq = Annotated[int, Field(ge=0, strict=True)]
Flag = Annotated[bool, Field(strict=True)]
# A person's name: at most 40 characters; an empty one is refused by the routes with a sentence
# of their own ("choose a name", :func:`shown_name`), not as a malformed request.
Name = Annotated[str, Field(max_length=40)]
JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner


def _digits(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value) is None:
        raise PydanticCustomError("int_parsing", "Input should be a valid integer, written in digits")
    return value


# A query's number is written in digits: "1.0", "1e0" or " 1" is refused, not read as 1.
WholeNumber = Annotated[int, BeforeValidator(_digits)]


def shown_name(raw: str) -> str | None:
    """A person's name as it is shown: control and format characters dropped (a zero-width space,
    a direction override: they show nothing, or turn what follows around), but for the joiners
    that some scripts and emoji need; each run of white space one space; None when no letter,
    digit, punctuation or symbol is left (an empty or invisible name)."""
    kept = (c for c in raw if unicodedata.category(c) not in ("Cc", "Cf") or c in JOINERS)
    name = " ".join("".join(kept).split())
    return name if any(unicodedata.category(c)[0] in "LNPS" for c in name) else None


def unique_keys(text: str | bytes | bytearray, title: str) -> None:
    """Refuse a JSON text that gives a key twice in an object (a parser keeps the last one
    silently): a :class:`ValidationError` of the kind ``duplicate_key`` (``problems.sentence``)."""
    key = duplicate_key(bytes(text) if isinstance(text, bytearray) else text)
    if key is not None:
        problem = PydanticCustomError(
            "duplicate_key", "the key {key} is given twice in the same object", {"key": repr(key)}
        )
        raise ValidationError.from_exception_data(title, [InitErrorDetails(type=problem, loc=(), input=text)])


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **options: Any) -> Self:
        """Read from JSON, a key given twice refused (:func:`unique_keys`)."""
        unique_keys(json_data, cls.__name__)
        return super().model_validate_json(json_data, **options)


Parsed = TypeVar("Parsed")


class UniqueKeys(Generic[Parsed]):
    """A type adapter's ``validate_json`` with a key given twice refused (:func:`unique_keys`)."""

    def __init__(self, adapter: TypeAdapter[Parsed], title: str) -> None:
        self.adapter = adapter
        self.title = title

    def validate_json(self, text: str | bytes) -> Parsed:
        unique_keys(text, self.title)
        return self.adapter.validate_json(text)


Body = TypeVar("Body", bound=BaseModel)


class SeatIn(Strict):
    name: Name
    bot: Literal[tuple(BOTS)] | None = None  # type: ignore[valid-type]


class NewGame(Strict):
    game: Literal[tuple(SPECS)]  # type: ignore[valid-type]
    seats: Annotated[list[SeatIn], Field(min_length=1, max_length=4)]
    real_dice: Flag = False
    language: Language = "fr"
    listed: Flag = False  # an open table: the other people's seats are free for anyone to take
    # The game's rules options (``Game(rules=...)``): names and true or false, the defaults for
    # those left out; a rule the game does not have is refused (422).
    rules: Annotated[dict[Annotated[str, Field(max_length=100)], Flag], Field(max_length=16)] = {}


class JoinIn(Strict):
    name: Name


class Act(Strict):
    move: Annotated[str, Field(min_length=1, max_length=80)]
    seq: Seq


class Undo(Strict):
    seq: Seq


class PracticeIn(Strict):
    """A move tried in a reviewed decision's position (``move_number``: the record's move, from 1)."""

    move_number: Annotated[int, Field(ge=1, strict=True)]
    move: Annotated[str, Field(min_length=1, max_length=80)]


class SocketAct(Act):
    """A move sent on the game's WebSocket by a seat's page; its ``id`` comes back in the answer."""

    type: Literal["act"]
    id: Seq


class SocketUndo(Undo):
    type: Literal["undo"]
    id: Seq


SocketChange = Annotated[SocketAct | SocketUndo, Field(discriminator="type")]
SOCKET_CHANGE: UniqueKeys[SocketAct | SocketUndo] = UniqueKeys(TypeAdapter(SocketChange), "SocketChange")


class ChallengeIn(Strict):
    name: Name


class Hello(Strict):
    type: Literal["hello"]
    token: Token | None = None
    lang: Language | None = None  # None: the socket request's language (deps.request_language)


class PlayerIn(Strict):
    name: Name
