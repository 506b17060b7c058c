"""``python -m host.spec`` prints the table host's OpenAPI document (host/openapi.yaml, which
``make spec`` writes): its paths, and its bodies and answers from the marshmallow schemas
``host.app`` loads and answers with."""

from __future__ import annotations

import sys
from typing import Any, cast

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from host import schemas
from service.api.languages import ACCEPT_LANGUAGE, ACCEPT_LANGUAGE_PARAMETER
from service.version import VERSION

PROBLEM = {"description": "An RFC 9457 problem (application/problem+json), its `errors` naming each field.",
           "content": {"application/problem+json": {"schema": {"type": "object"}}}}
BEARER: list[dict[str, list[str]]] = [{"seat_key": []}]
LANGUAGE = cast(dict[str, Any], ACCEPT_LANGUAGE)
"""The component by its name, which apispec reads as a reference (its hints say dicts only)."""
TABLE = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}


def _body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _answer(schema: str, description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[int, Any]:
    return dict.fromkeys(statuses, PROBLEM)


def generate() -> str:
    spec = APISpec(title="Card tables (the table host)", version=VERSION, openapi_version="3.1.0",
                   plugins=[MarshmallowPlugin()], info={"description": (
                       "Tables of several people beside the card-rules service: README, \"Tables for "
                       "several people\". Every call but opening a table and joining it proves a seat "
                       "(or a spectator) with `Authorization: Bearer <key>`.")})
    spec.components.security_scheme("seat_key", {"type": "http", "scheme": "bearer"})
    # Every request's language is negotiated (host.app), the refusals' and the events' words too.
    spec.components.parameter(ACCEPT_LANGUAGE, "header", ACCEPT_LANGUAGE_PARAMETER)
    for name in ("NewTable", "Join", "MoveIn", "SeatIn", "Opened", "Joined", "TableOut", "Verdict",
                 "SeatOut", "Ticket"):
        spec.components.schema(name, schema=getattr(schemas, name))
    spec.path("/v1/tables", parameters=[LANGUAGE], operations={"post": {
        "summary": "Open a table, its first hand dealt", "requestBody": _body("NewTable"),
        "responses": {201: _answer("Opened", "The table, with one invitation per person's seat"),
                      **_errors(400, 413, 422, 429)}}})
    spec.path("/v1/tables/{table_id}", parameters=[TABLE, LANGUAGE], operations={"get": {
        "summary": "The table as the seat (or a spectator) sees it", "security": BEARER,
        "responses": {200: _answer("TableOut"), **_errors(401, 404)}}})
    spec.path("/v1/tables/{table_id}/join", parameters=[TABLE, LANGUAGE], operations={"post": {
        "summary": "Take the seat an invitation opens", "requestBody": _body("Join"),
        "responses": {200: _answer("Joined"), **_errors(400, 404, 409, 413, 422)}}})
    spec.path("/v1/tables/{table_id}/moves", parameters=[TABLE, LANGUAGE], operations={"post": {
        "summary": "Play the seat's move at a move number", "security": BEARER,
        "requestBody": _body("MoveIn"),
        "responses": {200: _answer("Verdict"), **_errors(400, 401, 403, 404, 409, 413, 422)}}})
    spec.path("/v1/tables/{table_id}/seat", parameters=[TABLE, LANGUAGE], operations={"post": {
        "summary": "Give the seat to the computer, or take it back", "security": BEARER,
        "requestBody": _body("SeatIn"),
        "responses": {200: _answer("SeatOut"), **_errors(400, 401, 403, 404, 413, 422)}}})
    spec.path("/v1/tables/{table_id}/tickets", parameters=[TABLE, LANGUAGE], operations={"post": {
        "summary": "A ticket that opens the seat's event stream (for EventSource)", "security": BEARER,
        "responses": {200: _answer("Ticket"), **_errors(401, 404)}}})
    spec.path("/v1/tables/{table_id}/events", parameters=[TABLE, LANGUAGE], operations={"get": {
        "summary": "The seat's events as Server-Sent Events", "security": BEARER, "parameters": [
            {"name": "ticket", "in": "query", "schema": {"type": "string"},
             "description": "Instead of the Authorization header."},
            {"name": "last_event_id", "in": "query", "schema": {"type": "integer", "minimum": 0},
             "description": "Resume after this event (as the `Last-Event-ID` header does)."},
            {"name": "Last-Event-ID", "in": "header", "schema": {"type": "integer", "minimum": 0}}],
        "responses": {200: {"description": "`id:` and `data:` (a TableEvent) per event; heartbeat comments",
                            "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                      **_errors(401, 404, 422, 429)}}})
    return yaml.safe_dump(spec.to_dict(), sort_keys=False, allow_unicode=True, width=110)


if __name__ == "__main__":
    sys.stdout.write(generate())
