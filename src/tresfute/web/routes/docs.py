"""The API's documentation: FastAPI's OpenAPI description, browsable at ``/docs`` with Swagger UI
served from the package (``static/vendor``, Apache-2.0: the site works offline)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ..middleware import CONTENT_SECURITY_POLICY

SWAGGER_UI = "/static/vendor/swagger-ui-5.35.0"
# Swagger UI's page sets style attributes: its styles may be inline, its scripts may not.
DOCS_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")

PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tresfute: the HTTP API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{SWAGGER_UI}.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{SWAGGER_UI}-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""

START = """SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  deepLinking: true,
  validatorUrl: null,
});
"""

router = APIRouter(include_in_schema=False)


@router.get("/docs")
@router.get("/api/docs")
async def docs() -> HTMLResponse:
    return HTMLResponse(PAGE, headers={"Content-Security-Policy": DOCS_POLICY, "Cache-Control": "no-cache"})


@router.get("/docs/start.js")
async def start() -> Response:
    return Response(START, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/openapi.json")
async def openapi(request: Request) -> dict[str, Any]:
    """The OpenAPI description (also at ``/api/openapi.json``)."""
    description: dict[str, Any] = request.app.openapi()
    return description
