"""``/docs``: Swagger UI served from the swagger-ui-bundle package, so it works offline, and the
OpenAPI document as ``/openapi.json`` and ``/openapi.yaml``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import yaml
from flask import Blueprint, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card rules service: API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.json", dom_id: "#ui", deepLinking: true});</script>
</body></html>
"""


def render_yaml(spec: dict[str, Any]) -> str:
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100)


def blueprint(spec: Callable[[], dict[str, Any]]) -> Blueprint:
    bp = Blueprint("docs", __name__)
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

    @bp.get("/docs/assets/<path:name>")
    def assets(name: str) -> Response:
        return send_from_directory(swagger_ui_path, name, max_age=86400)

    @bp.get("/openapi.json")
    def openapi_json() -> Response:
        return Response(rendered("json"), mimetype="application/json")

    @bp.get("/openapi.yaml")
    def openapi_yaml() -> Response:
        return Response(rendered("yaml"), mimetype="application/yaml")

    return bp
