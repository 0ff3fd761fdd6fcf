"""The browser front end: ``tresfute serve``."""
