"""A skill ladder: the key balance numbers side by side for strategies of rising skill.

For each strategy of the ladder (e.g. random -> lowest -> threshold -> greedy -> tuned greedy)
every seat plays it, at each player count, on the same game numbers: seat fairness (the
largest seat gap and the equal-seats test), the heroes' success rate, and the card that stands
out by restricted play (the card whose removal changes its seat's win rate most, paired on
the same games). A designer sees whether an imbalance persists under skilled play or is an
artefact of naive bots. A rung where no seat's share ever varies (identical deterministic
players: every game a tie) is named as such, with no test. Skill vs luck: the win share of one
player of each strategy among players of the ladder's first (weakest) strategy, seat-rotated,
against the 1/n of pure luck.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from balance import aggregate, stats
from balance.errors import BalanceError


@dataclass
class LadderResult:
    rungs: pl.DataFrame  # strategy, players, games, seat gap with CI, p, heroes' success, top card
    skill: pl.DataFrame  # strategy, players, games, share, lo, hi, fair
    labels: list[str]


def run_ladder(game: str, ladder: list[str], players: list[int], games: int = 100_000, seed: int = 0,
               overrides: dict | None = None, threads: int | None = None, on_progress=None) -> LadderResult:
    from balance.api import simulate
    from balance.registry import get_game
    from balance.strategy import parse_strategy

    spec = get_game(game)
    labels = [parse_strategy(s, spec.strategies).label for s in ladder]
    if len(labels) < 2:
        raise BalanceError("give at least two strategies for a ladder, weakest first, e.g. "
                           "--ladder random,threshold,greedy")
    if len(set(labels)) != len(labels):
        raise BalanceError(f"the ladder repeats a strategy: {', '.join(labels)}")
    rungs, skill = [], []
    for label in labels:
        run = simulate(game, players=players, games=games, seed=seed, strategies=[label],
                       overrides=overrides, threads=threads, on_progress=on_progress,
                       card_strength="always")
        rungs.append(_rung(label, run))
    weakest = labels[0]
    for label in labels[1:]:
        for n in players:
            run = simulate(game, players=n, games=games, seed=seed, overrides=overrides, rotate=True,
                           strategies=[label] + [weakest] * (n - 1), threads=threads,
                           on_progress=on_progress)
            mine = run.seats.filter(pl.col("strategy") == label)
            count = int(mine["games"].sum())
            share, lo, hi = stats.mean_ci(mine["win_share"].sum(), mine["win_share_sq_sum"].sum(), count)
            skill.append({"strategy": label, "against": weakest, "players": n, "games": count,
                          "share": share, "lo": lo, "hi": hi, "fair": 1.0 / n})
    return LadderResult(pl.concat(rungs), pl.DataFrame(skill), labels)


def _rung(label: str, run) -> pl.DataFrame:
    fairness = aggregate.seat_fairness(run.seats)
    villains = run.villains.group_by("players").agg(pl.col("beaten", "fought").sum())
    effects = aggregate.card_effects(run.card_strength)
    top = (effects.sort(pl.col("difference").abs(), descending=True).group_by("players", maintain_order=True)
           .first().select("players", pl.col("card").alias("top_card"),
                           pl.col("difference").alias("top_card_effect"),
                           pl.col("p_adjusted").alias("top_card_p")))
    rates = aggregate.seat_rates(run.seats).group_by("players").agg(
        (pl.col("rate") - pl.col("fair")).abs().max().alias("largest_seat_edge"))
    out = (fairness.select("players", "games", "gap", "gap_lo", "gap_hi", "p_value", "p_adjusted",
                           "constant", "all_tied")
           .join(rates, on="players").join(villains, on="players").join(top, on="players"))
    success = out["beaten"].to_numpy() / out["fought"].to_numpy()
    return out.with_columns(strategy=pl.lit(label), heroes_success=pl.Series(success)).select(
        "strategy", "players", "games", "gap", "gap_lo", "gap_hi", "p_adjusted", "largest_seat_edge",
        "heroes_success", "top_card", "top_card_effect", "top_card_p", "constant", "all_tied").sort("players")


def write_ladder(result: LadderResult, out: Path, title: str) -> dict:
    """ladder.md, ladder.html (self-contained), figures, rungs.parquet and skill.parquet."""
    from balance import plots
    from balance.document import (Bullets, Code, Figure, Para, Section, Table, ci, pct, pp, pvalue,
                                to_html, to_markdown)

    out = Path(out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    result.rungs.write_parquet(out / "rungs.parquet")
    result.skill.write_parquet(out / "skill.parquet")
    # rungs with no variation have no gap to draw (a 0 with an interval would look like a finding)
    tested = result.rungs.filter(~pl.col("constant"))
    gap_fig = (plots.ladder_gaps(tested, out / "figures" / "ladder_gaps.png",
                                 [s for s in result.labels if s in set(tested["strategy"].to_list())])
               if tested.height else None)
    skill_fig = plots.skill_vs_luck(result.skill, out / "figures" / "skill_vs_luck.png", result.labels)
    verdict = []
    for n, g in result.rungs.group_by("players", maintain_order=True):
        unfair = g.filter(~pl.col("constant") & (pl.col("p_adjusted") < 0.05))["strategy"].to_list()
        verdict.append((f"{n[0]} players: seat edges found under ",
                        *([Code(", ".join(unfair))] if unfair else ["no tested strategy of the ladder"]),
                        " (equal-seats test, Holm over the player counts)."))
        for r in g.filter(pl.col("constant")).iter_rows(named=True):
            what = (f"every game was a {n[0]}-way tie" if r["all_tied"]
                    else "no seat's win share ever varied")
            verdict.append((f"{n[0]} players, ", Code(r["strategy"]), f" in every seat: {what} — "
                            "identical deterministic players make identical choices, so this rung "
                            "says nothing about seat fairness or card strength (no test shown).",))
    for n, g in result.skill.group_by("players", maintain_order=True):
        top = g.sort("share", descending=True).row(0, named=True)
        verdict.append((f"Skill vs luck, {n[0]} players: one ", Code(top["strategy"]), " player among ",
                        Code(top["against"]), f" players wins {pct(top['share'])} "
                        f"(95% CI {ci(top['lo'], top['hi'])}), against {pct(top['fair'])} for pure luck.",))

    def tested(r, text):
        return "—" if r["constant"] else text

    rung_rows = [[Code(r["strategy"]), str(r["players"]), f"{r['games']:,}", tested(r, pp(r["gap"])),
                  tested(r, ci(r["gap_lo"], r["gap_hi"], " pp")), tested(r, pvalue(r["p_adjusted"])),
                  pct(r["heroes_success"]), tested(r, str(r["top_card"])),
                  tested(r, pp(r["top_card_effect"], signed=True)), tested(r, pvalue(r["top_card_p"]))]
                 for r in result.rungs.iter_rows(named=True)]
    skill_rows = [[Code(r["strategy"]), Code(r["against"]), str(r["players"]), f"{r['games']:,}",
                   pct(r["share"]), ci(r["lo"], r["hi"]), pct(r["fair"])]
                  for r in result.skill.iter_rows(named=True)]
    sections = [
        Section("Verdict", [Bullets(verdict)]),
        Section("Balance by skill", [
            Para(("Every seat plays the strategy; seat gap = best minus worst seat win rate with its "
                  "95% interval; p: equal-seats chi-square, Holm-adjusted over the player counts; "
                  "top card: the card whose removal from one seat's hand (restricted play, paired "
                  "on the same games) changes that seat's win rate most — negative: the card "
                  "matters, positive: the seat does better without it — with its Holm-adjusted p "
                  "over the rung's cards. A dash: no seat's share varied, nothing to test.",)),
            *([Figure("ladder_gaps", gap_fig, "Largest seat gap by strategy and player count (rungs "
                      "where no seat's share varied are left out)")] if gap_fig else []),
            Table(["strategy", "players", "games", "seat gap", "95% CI", "seat test p",
                   "heroes' success", "top card", "change without it", "its Holm p"], rung_rows, left=2),
        ]),
        Section("Skill vs luck", [
            Para(("One player of the strategy, seat-rotated, among players of the ladder's first "
                  "strategy; pure luck would give 1/n.",)),
            Figure("skill_vs_luck", skill_fig, "Win share of one skilled player against weaker players"),
            Table(["strategy", "against", "players", "games", "win share", "95% CI", "luck (1/n)"],
                  skill_rows, left=2),
        ]),
    ]
    md, page = out / "ladder.md", out / "ladder.html"
    md.write_text(to_markdown(title, sections, out), encoding="utf-8")
    page.write_text(to_html(title, sections), encoding="utf-8")
    return {"markdown": md, "html": page, "figures": [f for f in (gap_fig, skill_fig) if f]}
