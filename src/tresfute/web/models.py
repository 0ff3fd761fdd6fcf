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
# A person's name: at most 40 characters; an empty one is refused by the routes with a sentence
# of their own ("choose a name", :func:`shown_name`), not as a malformed request.
Name = Annotated[str, Field(max_length=40)]
JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner


def shown_name(raw: str) -> str | None:
    """A person's name as it is shown: control and format characters dropped (a zero-width space,
    a direction override: they show nothing, or turn what follows around), but for the joiners
    that some scripts and emoji need; each run of white space one space; None when no letter,
    digit, punctuation or symbol is left (an empty or invisible name)."""
    kept = (c for c in raw if unicodedata.category(c) not in ("Cc", "Cf") or c in JOINERS)
    name = " ".join("".join(kept).split())
    return name if any(unicodedata.category(c)[0] in "LNPS" for c in name) else None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


class JoinIn(Strict):
    name: Name


class Act(Strict):
    move: Annotated[str, Field(min_length=1, max_length=80)]
    seq: Seq


class Undo(Strict):
    seq: Seq


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
    name: Name


class Hello(Strict):
    type: Literal["hello"]
    token: Token | None = None
    lang: Language | None = None  # None: the socket request's language (deps.request_language)


class PlayerIn(Strict):
    name: Name
