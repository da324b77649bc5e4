"""Python side of the Defenders of the Realm kernel: the team's heroes in, a Chunk with the core
counters and the game's ``generals``, ``combats``, ``heroes`` and ``champions`` tables out."""
from __future__ import annotations

import numpy as np
import polars as pl

from balance.core import kit, schema
from balance.core.counters import BaseEngine, Chunk, distinct_sides
from balance.core.errors import BalanceError
from balance.core.game import WIN_UNIT
from balance.core.strategy import Strategy

from . import GAME, WON
from . import kernel as K
from .catalogue import GENERALS, HEROES, PATH_STEPS
from .rules import Rules
from .tables import CHAMPIONS, COMBATS, GAME_COLUMNS, GENERALS as GENERALS_TABLE, HEROES_TABLE

assert (K.WON, K.CAPPED) == (WON, GAME.capped_code)
GS_GAMES, GS_SLAIN, GS_IN_CITY, GS_STEP_SUM = range(4)  # general_stats[g, *]
HS_GAMES, HS_WON, HS_DEATHS, HS_SLAIN, HS_CHAMPION, HS_CHAMPION_WON = range(6)  # hero_stats[seat, hero, *]


def side_names(rules: Rules) -> list[str]:
    """The heroes a seat can play (what --side accepts), in side-index order: all nine, whatever
    the rules' pool (the pool is what drawn teams and replacements come from)."""
    return list(HEROES)


def canonical_side(rules: Rules, name: str) -> str:
    """A hero's name in any case, with or without its space (``eagle rider``, ``EagleRider``)."""
    key = name.replace(" ", "").replace("_", "").replace("-", "").lower()
    for hero in HEROES:
        if hero.replace(" ", "").lower() == key:
            return hero
    return name


def champion_units(champion: np.ndarray) -> np.ndarray:
    """The King's Champion title of each game shared out: int64[n, P] in WIN_UNIT units; the
    seats with the most slain-general cards share it (all of them when none slew one)."""
    top = champion.max(axis=1, keepdims=True)
    holders = champion == top
    return holders * (WIN_UNIT // holders.sum(axis=1, keepdims=True))


class Engine(BaseEngine):
    """Plays games of one rules object with one strategy per seat, each seat a hero.

    sides: the hero (index into catalogue.HEROES) of each seat, distinct, or None: each game
    draws its team from the rules' hero pool on its own stream (``kit.SIDE_STREAM``)."""

    GAME = GAME
    GAME_COLUMNS = GAME_COLUMNS

    def __init__(self, rules: Rules, strategies: list[Strategy], sides=None, card_strength=None):
        if card_strength is not None:
            raise BalanceError("defenders-of-the-realm has no restricted play (no cards a seat builds a deck "
                               "from); run it without --card-strength")
        if len(strategies) != rules.players:
            raise BalanceError(f"{len(strategies)} strategies for {rules.players} players")
        self.rules = rules
        self.strategies = list(strategies)
        self.side_names = side_names(rules)
        sides = distinct_sides(sides, rules.players, self.side_names, "hero")
        self.given_sides = sides
        self.given = np.array(sides if sides is not None else [-1] * rules.players, np.int64)
        self.state = K.new_state(rules, strategies)  # a template: play copies it
        self.max_length = rules.turn_cap

    def game_totals(self) -> dict:
        """general_stats[4, GS_*]; cmb and grp (the kernel's combat counters); hero_stats[P, 9,
        HS_*]; champion_hist[P, 5, (games, won)]."""
        st = self.state[0]
        p = self.rules.players
        return {"general_stats": np.zeros((4, 4), np.int64), "cmb": np.zeros_like(st["cmb"]),
                "grp": np.zeros_like(st["grp"]), "hero_stats": np.zeros((p, len(HEROES), 6), np.int64),
                "champion_hist": np.zeros((p, 5, 2), np.int64)}

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        p, n = self.rules.players, n_games
        state = self.state.copy()  # a fresh copy per call: threads of one process share this engine
        win_units = np.zeros((n, p), np.int32)
        outcome = np.zeros(n, np.int8)
        length = np.zeros(n, np.int32)
        sides = np.zeros((n, p), np.int16)
        champion, deaths = np.zeros((n, p), np.int64), np.zeros((n, p), np.int64)
        slain, steps, board = (np.zeros((n, 4), np.int64) for _ in range(3))
        K.play_games(state[0], self.given, np.uint64(seed), first_game, n, win_units, outcome, length, sides,
                     champion, deaths, slain, steps, board)
        totals = self.empty_totals()
        chunk = Chunk(first_game, win_units, outcome, length, None, sides,
                      {"champion": champion, "deaths": deaths, "slain": slain, "steps": steps, "board": board}, totals)
        kit.fold_chunk(chunk, totals)
        totals["cmb"] += state[0]["cmb"]
        totals["grp"] += state[0]["grp"]
        gs = totals["general_stats"]
        gs[:, GS_GAMES] += n
        gs[:, GS_SLAIN] += slain.sum(axis=0)
        gs[:, GS_IN_CITY] += (steps == PATH_STEPS).sum(axis=0)
        gs[:, GS_STEP_SUM] += steps.sum(axis=0)
        won = (outcome == WON).astype(np.int64)
        title = champion_units(champion)
        for s in range(p):
            columns = (np.ones(n, np.int64), won, deaths[:, s], champion[:, s], title[:, s], title[:, s] * won)
            for k, values in enumerate(columns):
                totals["hero_stats"][s, :, k] += np.bincount(sides[:, s], values, len(HEROES)).astype(np.int64)
            score = np.minimum(champion[:, s], 4)
            totals["champion_hist"][s, :, 0] += np.bincount(score, minlength=5)
            totals["champion_hist"][s, :, 1] += np.bincount(score, won, 5).astype(np.int64)
        return chunk

    def tables(self, totals: dict) -> dict[str, pl.DataFrame]:
        p = self.rules.players
        gs = totals["general_stats"]
        out = {"generals": schema.frame({
            "players": [p] * 4, "general": list(GENERALS), "games": gs[:, GS_GAMES], "slain": gs[:, GS_SLAIN],
            "in_city": gs[:, GS_IN_CITY], "step_sum": gs[:, GS_STEP_SUM]}, GENERALS_TABLE)}
        cmb, grp = totals["cmb"], totals["grp"]
        g, life, c1, c2, mod, rr = np.nonzero(cmb[..., 0])
        gg, heroes = np.nonzero(grp[..., 0])
        m = len(gg)
        out["combats"] = schema.frame({
            "players": [p] * (len(g) + m), "general": [GENERALS[i] for i in np.concatenate([g, gg])],
            "heroes": np.concatenate([np.ones(len(g), np.int64), heroes]),
            "life": np.concatenate([life + 1, np.full(m, -1)]), "cards1": np.concatenate([c1, np.full(m, -1)]),
            "cards2": np.concatenate([c2, np.full(m, -1)]), "modifier": np.concatenate([mod, np.full(m, -1)]),
            "rerolls": np.concatenate([rr, np.full(m, -1)]),
            "combats": np.concatenate([cmb[g, life, c1, c2, mod, rr, 0], grp[gg, heroes, 0]]),
            "kills": np.concatenate([cmb[g, life, c1, c2, mod, rr, 1], grp[gg, heroes, 1]])}, COMBATS)
        hs = totals["hero_stats"]
        seat, hero = np.nonzero(hs[..., HS_GAMES])
        out["heroes"] = schema.frame({
            "players": [p] * len(seat), "seat": seat, "hero": [HEROES[h] for h in hero],
            "games": hs[seat, hero, HS_GAMES], "won": hs[seat, hero, HS_WON], "deaths": hs[seat, hero, HS_DEATHS],
            "slain": hs[seat, hero, HS_SLAIN], "champion_units": hs[seat, hero, HS_CHAMPION],
            "champion_units_won": hs[seat, hero, HS_CHAMPION_WON]}, HEROES_TABLE)
        ch = totals["champion_hist"]
        seat, score = np.nonzero(ch[..., 0])
        out["champions"] = schema.frame({
            "players": [p] * len(seat), "seat": seat, "score": score, "games": ch[seat, score, 0],
            "won": ch[seat, score, 1]}, CHAMPIONS)
        return out

    def game_columns(self, chunk: Chunk) -> dict:
        """The game's --keep-games columns of a chunk (tables.GAME_COLUMNS), flat [n * P]."""
        return {"champion": chunk.columns["champion"].ravel(), "deaths": chunk.columns["deaths"].ravel()}
