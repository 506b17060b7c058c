"""Bura's schemas for the API, as ``service.games.bura.wire`` declares them."""

from __future__ import annotations

from service.games.bura.wire import HAND_SCORE, MATCH, MOVES, OPTIONS, STATE, VIEW, WIRE
from service.wire.schemas import GameSchemas

SCHEMAS = GameSchemas(fields=WIRE, state=STATE.schema, moves=MOVES.schemas, options=OPTIONS.schema,
                      match=MATCH.schema, view=VIEW.schema, hand_score=HAND_SCORE)
