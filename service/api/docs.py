"""``/docs``: Swagger UI 5 (it reads OpenAPI 3.1; the 4.x of swagger-ui-bundle did not) served
from the swagger-ui-py package's assets, so it works offline, and the OpenAPI document as
``/openapi.json`` and ``/openapi.yaml``."""

from __future__ import annotations

from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import orjson
import yaml
from flask import Blueprint, Response, send_from_directory


def _assets() -> str:
    """swagger-ui-py's static files, found without importing the package (it would load its
    own framework handlers)."""
    spec = find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("swagger-ui-py is not installed")
    return f"{next(iter(spec.submodule_search_locations))}/static"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card rules service: API</title>
<link rel="icon" href="/docs/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.json", dom_id: "#ui", deepLinking: true});</script>
</body></html>
"""


ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84">'
        '<rect x="1" y="1" width="58" height="82" rx="5" fill="#fff" stroke="#555"/>'
        '<text x="30" y="56" font-size="34" text-anchor="middle" '
        'fill="#111">\u2660</text></svg>')
"""The page's icon: /play's card (clients/web/static/favicon.svg) with a spade for its heart."""


def render_yaml(spec: dict[str, Any]) -> str:
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100)


def blueprint(spec: Callable[[], dict[str, Any]]) -> Blueprint:
    bp = Blueprint("docs", __name__)
    static = _assets()
    cache: dict[str, bytes] = {}

    def rendered(kind: str) -> bytes:
        if kind not in cache:
            document = spec()
            text = orjson.dumps(document) if kind == "json" else render_yaml(document).encode()
            cache[kind] = text
        return cache[kind]

    @bp.get("/docs")
    def page() -> Response:
        return Response(PAGE, mimetype="text/html")

    @bp.get("/docs/favicon.svg")
    def icon() -> Response:
        return Response(ICON, mimetype="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    @bp.get("/docs/assets/<path:name>")
    def assets(name: str) -> Response:
        return send_from_directory(static, name, max_age=86400)

    @bp.get("/openapi.json")
    def openapi_json() -> Response:
        return Response(rendered("json"), mimetype="application/json")

    @bp.get("/openapi.yaml")
    def openapi_yaml() -> Response:
        return Response(rendered("yaml"), mimetype="application/yaml")

    return bp
