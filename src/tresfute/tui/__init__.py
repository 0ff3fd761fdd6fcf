"""The terminal game (``tresfute play``)."""
