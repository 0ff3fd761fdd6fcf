"""The days of the daily challenge (UTC): a game's dice are hidden until its day is over."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta


def day_of(moment: float) -> str:
    """The (UTC) day of a moment, as ``YYYY-MM-DD``."""
    return datetime.fromtimestamp(moment, UTC).date().isoformat()


def closes(day: str) -> float:
    """When the day is over (its next midnight, UTC)."""
    start = datetime.combine(date.fromisoformat(day), datetime.min.time(), UTC)
    return (start + timedelta(days=1)).timestamp()
