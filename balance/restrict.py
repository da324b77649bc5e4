"""Card strength by restricted play (Jaffe, Miller, Andersen, Liu, Karlin & Popović,
"Evaluating competitive game balance with restricted play", AIIDE 2012).

One seat may not play a given card (always: as if removed from its hand; or before the last
villain of each battle) while every other seat plays unrestricted with the same strategy. The
card's strength is how much that seat's win share drops. The restricted seat is rotated over
all seats in equal blocks of games (seat effects cancel), and every card is measured on the
same games as one unrestricted baseline (common random numbers), so each difference is a
paired per-game mean with its own interval; Holm corrects over the cards.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from balance import stats
from balance.errors import BalanceError, check_int

WHEN = {"always": "ALWAYS", "before-last": "BEFORE_LAST"}
WIN_UNIT = 60


@dataclass
class RestrictResult:
    table: pl.DataFrame  # card, games, baseline, restricted, difference, lo, hi, p_value, p_adjusted
    players: int
    strategy: str
    when: str


def run_restrict(game: str, players: int = 4, strategy: str = "greedy", cards: list[int] | None = None,
                 when: str = "always", games: int = 100_000, seed: int = 0,
                 overrides: dict | None = None, chunk_size: int = 20_000,
                 on_progress=None) -> RestrictResult:
    from balance.api import MAX_GAMES, MAX_SEED
    from balance.registry import get_game
    from balance.strategy import parse_strategy

    spec = get_game(game)
    rules_mod = spec.part("rules")
    engine_mod = spec.part("engine")
    if when not in WHEN:
        raise BalanceError(f"unknown --when {when!r}; allowed: {', '.join(WHEN)}")
    check_int("seed", seed, 0, MAX_SEED)
    rules = rules_mod.Rules.from_overrides({**(overrides or {}), "players": players})
    check_int("games", games, players, MAX_GAMES)
    hand = sorted(rules.hand)
    cards = hand if not cards else list(cards)
    for card in cards:
        if card not in hand:
            raise BalanceError(f"card {card} is not in the hand; allowed: {', '.join(map(str, hand))}")
    if len(set(cards)) != len(cards):
        raise BalanceError(f"--card repeats a value: {cards}")
    if when == "always" and len(hand) - 1 < rules.villains_per_battle:
        raise BalanceError(f"removing a card leaves {len(hand) - 1} cards for "
                           f"{rules.villains_per_battle} villains per battle")
    seats = [parse_strategy(strategy, spec.strategies)] * players
    base = engine_mod.Engine(rules, seats)
    flag = rules_mod.Restrict[WHEN[when]]

    def restricted(card: int, seat: int):
        restrict = np.zeros((players, 2), np.int64)
        restrict[seat] = (1 << card, flag)
        return engine_mod.Engine(rules, seats, restrict)

    engines = {(c, s): restricted(c, s) for c in cards for s in range(players)}
    sums = {c: np.zeros(4) for c in cards}  # sum base share, sum restricted share, sum d, sum d^2
    bounds = [r * games // players for r in range(players + 1)]
    for seat in range(players):  # block `seat`: that seat is the restricted one
        for first in range(bounds[seat], bounds[seat + 1], chunk_size):
            n = min(chunk_size, bounds[seat + 1] - first)
            baseline = base.play(seed, first, n).win_units[:, seat] / WIN_UNIT
            for card in cards:
                mine = engines[(card, seat)].play(seed, first, n).win_units[:, seat] / WIN_UNIT
                d = mine - baseline
                sums[card] += (baseline.sum(), mine.sum(), d.sum(), (d * d).sum())
            if on_progress is not None:
                on_progress(n * (len(cards) + 1))
    rows = []
    for card in cards:
        b, r, d, d2 = sums[card]
        test = stats.paired_mean_test(d, d2, games)
        rows.append({"card": card, "games": games, "baseline": b / games, "restricted": r / games,
                     "difference": test["mean"], "lo": test["lo"], "hi": test["hi"],
                     "p_value": test["pvalue"]})
    table = pl.DataFrame(rows)
    table = table.with_columns(p_adjusted=pl.Series(stats.holm(table["p_value"].to_numpy())))
    return RestrictResult(table.sort("difference"), players, seats[0].label, when)


def write_restrict(result: RestrictResult, out: Path, title: str) -> dict:
    """restrict.md, restrict.html (self-contained), figures/restrict.png, restrict.parquet."""
    from balance import plots
    from balance.report import (Bullets, Code, Figure, Para, Section, Table, pct, pp, pvalue,
                                to_html, to_markdown)

    out = Path(out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    result.table.write_parquet(out / "restrict.parquet")
    figure = plots.card_restriction(result.table, out / "figures" / "restrict.png")
    situation = ("removed from the hand" if result.when == "always"
                 else "not playable before the last villain of a battle")
    worst = result.table.row(0, named=True)
    significant = result.table.filter(pl.col("p_adjusted") < 0.05)
    rows = [[str(r["card"]), f"{r['games']:,}", pct(r["baseline"]), pct(r["restricted"]),
             pp(r["difference"], signed=True), f"[{pp(r['lo'], True)}, {pp(r['hi'], True)}]",
             pvalue(r["p_value"]), pvalue(r["p_adjusted"])] for r in result.table.iter_rows(named=True)]
    sections = [
        Section("Verdict", [Bullets([
            (f"Losing the {worst['card']} hurts most: the restricted seat's win share falls from "
             f"{pct(worst['baseline'])} to {pct(worst['restricted'])} ({pp(worst['difference'], True)}, "
             f"Holm-adjusted {pvalue(worst['p_adjusted'])}).",),
            (f"{significant.height} of {result.table.height} cards matter significantly when "
             f"{situation}.",),
        ])]),
        Section("Cards ranked by how much losing them hurts", [
            Para((f"{result.players} players, every seat ", Code(result.strategy),
                  f"; one seat (rotated over all seats) has the card {situation}. Difference: the "
                  "restricted seat's win share minus the same seat's on the same games unrestricted "
                  "(paired, normal interval); Holm correction over the cards.",)),
            Figure("restrict", figure, "Win-share change of the restricted seat, per card"),
            Table(["card", "games", "unrestricted", "restricted", "difference", "95% CI", "p",
                   "Holm p"], rows, left=1),
        ]),
    ]
    md, page = out / "restrict.md", out / "restrict.html"
    md.write_text(to_markdown(title, sections, out), encoding="utf-8")
    page.write_text(to_html(title, sections), encoding="utf-8")
    return {"markdown": md, "html": page, "figures": [figure]}
