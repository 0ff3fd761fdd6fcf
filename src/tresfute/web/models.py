"""What requests carry: the JSON bodies and the WebSocket's first message, read strictly (unknown
fields refused, a number must be a JSON number), and the tokens' shape."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..bots import BOTS
from ..rules import SPECS

Language = Literal["fr", "en"]
Token = Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
TOKEN: TypeAdapter[str] = TypeAdapter(Token)
JSON_OBJECT: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
# A number is a JSON number and a flag true or false: "0" or 1 for a flag is refused, not read loosely.
Seq = Annotated[int, Field(ge=0, strict=True)]
Flag = Annotated[bool, Field(strict=True)]


def shown_name(raw: str) -> str | None:
    """A person's name as it is shown: control characters dropped, each run of white space one
    space; None when no letter, digit, punctuation or symbol is left (an empty or invisible name)."""
    name = " ".join("".join(c for c in raw if unicodedata.category(c) != "Cc").split())
    return name if any(unicodedata.category(c)[0] in "LNPS" for c in name) else None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Body = TypeVar("Body", bound=BaseModel)


class SeatIn(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    bot: Literal[tuple(BOTS)] | None = None  # type: ignore[valid-type]


class NewGame(Strict):
    game: Literal[tuple(SPECS)]  # type: ignore[valid-type]
    seats: Annotated[list[SeatIn], Field(min_length=1, max_length=4)]
    real_dice: Flag = False
    language: Language = "fr"
    listed: Flag = False  # an open table: the other people's seats are free for anyone to take


class JoinIn(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]


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
SOCKET_CHANGE: TypeAdapter[SocketAct | SocketUndo] = TypeAdapter(SocketChange)


class ChallengeIn(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]


class Hello(Strict):
    type: Literal["hello"]
    token: Token | None = None
    lang: Language = "fr"


class PlayerIn(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
