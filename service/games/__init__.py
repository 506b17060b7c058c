"""The games: the protocol every game implements (``base``), how a game object is composed
(``compose``, ``wired``), the shared rules of seats, tricks and matches, and one package per game.
The registry is ``service.games.registry``; this file imports nothing, so that one game's rules
import without the others."""
