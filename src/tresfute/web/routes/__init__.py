"""The HTTP and WebSocket routes, one module for each thing served (see ``web/app.py``)."""
