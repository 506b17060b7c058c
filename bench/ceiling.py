"""The ceiling: a bare Flask app with one POST endpoint that parses a JSON body and answers small."""

from __future__ import annotations

from flask import Flask, jsonify, request


def create_app() -> Flask:
    app = Flask(__name__)

    @app.post("/echo")
    def echo():
        body = request.get_json()
        return jsonify({"ok": True, "keys": len(body)})

    return app
