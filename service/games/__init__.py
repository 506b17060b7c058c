"""GAMES: the one registry. Adding a game is one package under ``service/games`` and one line here."""

from __future__ import annotations

from typing import Any

from service.games.base import Game
from service.games.bezique import Bezique
from service.games.bura import Bura
from service.games.canasta import Canasta
from service.games.kozel import Kozel
from service.games.kozel_bura import KozelBura
from service.games.sixty_six import SixtySix

GAMES: dict[str, Game[Any, Any]] = {
    "sixty-six": SixtySix(),
    "bura": Bura(),
    "kozel-bura": KozelBura(),
    "kozel": Kozel(),
    "bezique": Bezique(),
    "canasta": Canasta(),
}
