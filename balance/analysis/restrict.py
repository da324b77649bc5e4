"""Card strength by restricted play (Jaffe, Miller, Andersen, Liu, Karlin & Popović,
"Evaluating competitive game balance with restricted play", AIIDE 2012).

One seat may not play a given card (in one of the game's declared restrict_modes, e.g. for
avengers-cards: removed from its hand, or held until the last villain of each battle) while
every other seat plays unrestricted with the same strategy. The
card's strength is how much that seat's win share drops. The restricted seat is rotated over
all seats in equal blocks of games (seat effects cancel), and every card is measured on the
same games as one unrestricted baseline (common random numbers), so each difference is a
paired per-game mean with its own interval; Holm corrects over the cards. The games are played
by ``balance simulate --card-strength`` (``aggregate.card_effects`` reads them).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from balance.analysis import aggregate
from balance.core.errors import BalanceError


@dataclass
class RestrictResult:
    table: pl.DataFrame  # card, games, baseline, restricted, difference, lo, hi, p_value,
    #                      p_adjusted, unchanged (no game's share moved), detectable (the
    #                      change found with 90% power: aggregate.card_effects)
    players: int
    strategy: str
    when: str
    game: str  # the game id
    untuned: dict | None = None  # the strategy when tuned at another count (strategy.untuned_counts)


def run_restrict(game: str, players: int | None = None, strategy: str | None = None, cards: list | None = None,
                 when: str = "always", games: int = 100_000, seed: int = 0,
                 overrides: dict | None = None, chunk_size: int | None = None,
                 on_progress=None, threads: int | None = None, play=None) -> RestrictResult:
    """Every seat plays ``strategy`` (default: the game's declared default strategy); each card
    of ``cards`` (default: every card, as the game names them) is denied to one seat as the
    game's plan says (GameInfo.restrict_seat). The games are those of ``balance simulate
    --card-strength`` with the same seed, so this command and a run's report measure card
    strength identically.

    play: what plays each run, with ``balance.core.api.simulate``'s arguments (default: it; the
    CLI passes ``StudyCheckpointer.simulate``, which keeps every finished run for --resume).
    """
    from balance.core.api import simulate
    from balance.core.registry import get_game

    simulate = play or simulate

    spec = get_game(game)
    players = spec.default_players if players is None else players
    if spec.restrictable is None:
        raise BalanceError(f"{game} declares nothing to restrict; restricted play needs a game "
                           "whose declaration names what a seat can be denied")
    strategy = spec.default_strategy if strategy is None else strategy
    modes = [mode for mode, _ in spec.restrict_modes]
    if when not in modes:
        raise BalanceError(f"unknown --when {when!r}; allowed: {', '.join(modes)}")
    run = simulate(game, players=players, games=games, seed=seed, strategies=[strategy],
                   overrides=overrides, chunk_size=chunk_size, on_progress=on_progress,
                   threads=threads, card_strength=when, card_strength_cards=cards)
    from balance.core.card_trials import UNITS_TABLE

    table = (aggregate.card_effects(run.card_strength, run.tables.get(UNITS_TABLE))
             .rename({"unrestricted": "baseline"})
             .select("card", "games", "baseline", "restricted", "difference", "lo", "hi",
                     "p_value", "p_adjusted", "unchanged", "detectable"))
    from balance.core.strategy import untuned_counts

    label = run.manifest["runs"][0]["seatings"][0]["strategies"][0]["label"]
    return RestrictResult(table.sort("difference"), players, label, when, spec.id, untuned_counts(run.manifest))


def write_restrict(result: RestrictResult, out: Path, title: str) -> dict:
    """restrict.md, restrict.html (self-contained), figures/restrict.png, restrict.parquet."""
    from balance.analysis import plots
    from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Table, ci, pct, pp, pvalue,
                                  to_html, to_markdown)
    from balance.core.registry import get_game
    from balance.analysis.report import card_verdict, untuned_cautions

    out = Path(out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    result.table.write_parquet(out / "restrict.parquet")
    # no figure of no rows: a study whose games never dealt the card it measures
    figure = (plots.card_restriction(plots.largest_changes(result.table), out / "figures" / "restrict.png")
              if result.table.height else None)
    drawn = ("per card" if result.table.height <= plots.CARDS_DRAWN else
             f"the {plots.CARDS_DRAWN} largest changes of {result.table.height} cards (the table lists every one)")
    info = get_game(result.game)
    item, situation = info.restrictable, info.restrict_meaning(result.when)
    rows = [[str(r["card"]), f"{r['games']:,}", pct(r["baseline"]), pct(r["restricted"]),
             pp(r["difference"], signed=True), ci(r["lo"], r["hi"], " pp"),
             pvalue(r["p_value"]), pvalue(r["p_adjusted"])] for r in result.table.iter_rows(named=True)]
    sections = [
        Section("Verdict", [Bullets([
            # a caution comes before the line it qualifies: a strategy tuned at another count plays untuned here
            *untuned_cautions(result.untuned or {}, [result.strategy]),
            (f"{result.players} players, {item} {situation}: ",
             *card_verdict(result.table, item, *info.act(result.when))),
        ])]),
        Section(f"{item.capitalize()}s ranked by how much losing them hurts", [
            Para((f"{result.players} players, every seat ", Code(result.strategy),
                  f"; {info.restrict_seat} has the card {situation}. Difference: the "
                  "restricted seat's win share minus the same seat's on the same games unrestricted "
                  "(paired, normal interval); Holm correction over the cards.",)),
            *([Figure("restrict", figure, f"Win-share change of the restricted seat, {drawn}")] if figure else []),
            Table(["card", "games", "unrestricted", "restricted", "difference", "95% CI", "p",
                   "Holm p"], rows, left=1),
        ]),
    ]
    md, page = out / "restrict.md", out / "restrict.html"
    md.write_text(to_markdown(title, sections, out), encoding="utf-8")
    page.write_text(to_html(title, sections), encoding="utf-8")
    return {"markdown": md, "html": page, "figures": [figure] if figure else []}
