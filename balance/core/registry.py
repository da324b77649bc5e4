"""The games the toolkit knows: game id -> its declaration (``balance.core.game.GameInfo``).

Built-in games live under ``balance/games/``; a game from another distribution registers an
entry point in the group ``balance.games`` whose value is its package (or the ``GameInfo``
itself), e.g. in its pyproject.toml::

    [project.entry-points."balance.games"]
    my-game = "my_studio.my_game"

Game modules are imported only when a game is used, so ``balance --help`` stays fast; a
declaration is checked once, when its game is first used.
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from importlib.metadata import entry_points

from balance.core.errors import BalanceError, one_of
from balance.core.game import GameInfo

ENTRY_POINT_GROUP = "balance.games"

# game id -> package whose __init__ defines GAME = GameInfo(...)
BUILT_IN = {
    "avengers-cards": "balance.games.avengers_cards",
    "smash-up": "balance.games.smash_up",
    "zenonzard": "balance.games.zenonzard",
    "defenders-of-the-realm": "balance.games.defenders",
}


def game_ids() -> list[str]:
    """Every game id: the built-in ones, then those registered by other packages."""
    return list(BUILT_IN) + [name for name in _plugins() if name not in BUILT_IN]


def _plugins() -> dict:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def game_package(game_id: str) -> dict | None:
    """The distribution a game registered by another package comes from, as a manifest records
    it beside balance's own version: {"name", "version"}; None for a built-in game (balance's
    version is its version) or where the entry point names no distribution."""
    if game_id in BUILT_IN:
        return None
    dist = getattr(_plugins().get(game_id), "dist", None)
    return {"name": dist.metadata["Name"], "version": dist.version} if dist is not None else None


def get_game(game_id: str) -> GameInfo:
    """The checked declaration of ``game_id``; BalanceError for an unknown or malformed game,
    or for a game id that is not text (a list was 'unhashable type' from the cache)."""
    if not isinstance(game_id, str):
        raise BalanceError(f"game={game_id!r} is not text; give a game id, e.g. {game_ids()[0]!r} "
                           "(balance games lists them)")
    return _declared(game_id)


@lru_cache(maxsize=None)
def _declared(game_id: str) -> GameInfo:
    """get_game's work, cached: each game is imported and checked once."""
    if game_id in BUILT_IN:
        target = importlib.import_module(BUILT_IN[game_id])
    else:
        plugins = _plugins()
        if game_id not in plugins:
            raise one_of("game", game_id, game_ids())
        try:
            target = plugins[game_id].load()
        except Exception as e:  # a broken plug-in must not take the CLI down with a traceback
            raise BalanceError(f"game {game_id!r}: its entry point {plugins[game_id].value!r} "
                               f"cannot be loaded ({type(e).__name__}: {e})") from None
    info = target if isinstance(target, GameInfo) else getattr(target, "GAME", None)
    if not isinstance(info, GameInfo):
        raise BalanceError(f"game {game_id!r}: {getattr(target, '__name__', target)!r} defines no "
                           "GAME = balance.core.game.GameInfo(...)")
    if info.id != game_id:
        raise BalanceError(f"game {game_id!r} is registered under that name but declares id {info.id!r}")
    return info.check()


get_game.cache_clear = _declared.cache_clear  # a test registering a game starts from a clean cache
