"""What the environment may set (``TRESFUTE_…`` variables), and how a wrong value is refused."""

from __future__ import annotations


class SettingError(ValueError):
    """An environment variable holds a value that cannot be used: its message (translated)
    names the variable, the value and what is expected, so that a command can print it as one
    error line instead of a traceback."""
