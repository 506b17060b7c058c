"""GAMES: the one registry. Adding a game is one package under ``service/games`` and one line here
(with its import)."""

from __future__ import annotations

from typing import Any

from service.games.base import Game
from service.games.bezique.game import Bezique
from service.games.bura.game import Bura
from service.games.canasta.game import Canasta
from service.games.kozel.game import Kozel
from service.games.kozel_bura.game import KozelBura
from service.games.sixty_six.game import SixtySix

GAMES: dict[str, Game[Any, Any]] = {
    "sixty-six": SixtySix(),
    "bura": Bura(),
    "kozel-bura": KozelBura(),
    "kozel": Kozel(),
    "bezique": Bezique(),
    "canasta": Canasta(),
}
