"""Bezique's schemas for the API, as ``service.games.bezique.wire`` declares them."""

from __future__ import annotations

from service.games.bezique.wire import FAMILY, HAND_SCORE, MATCH, MOVES, OPTIONS, STATE, VIEW, WIRE
from service.wire.schemas import GameSchemas

SCHEMAS = GameSchemas(fields=WIRE, state=STATE.schema, moves=MOVES.schemas, options=OPTIONS.schema,
                      match=MATCH.schema, view=VIEW.schema, hand_score=HAND_SCORE, family=FAMILY)
