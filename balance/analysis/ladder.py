"""A skill ladder: the key balance numbers side by side for strategies of rising skill.

For each strategy of the ladder (e.g. random -> lowest -> threshold -> greedy -> tuned greedy)
every seat plays it, at each player count, on the same game numbers: seat fairness (the
largest seat gap and the equal-seats test), the share of games the turn cap stopped, and, for
a game with restricted play (``GameInfo.restrictable``), the item that stands out by
restricted play (the card whose removal changes its seat's win rate most, paired on the same
games), and the game's own measures (its report part's ``ladder_measures``, with its verdict
lines on them from ``ladder_verdict``). A
designer sees whether an imbalance persists under skilled play or is an artefact of naive
bots. A rung where no seat's share ever varies (identical deterministic players: every game a
tie) is named as such, with no test. Skill vs luck: the win share of one player of each
strategy among players of the ladder's first (weakest) strategy, seat-rotated, against the
1/n of pure luck (not asked in a cooperative game, whose seats win or lose together; there the
best strategy's team win rate is tested against the next).
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import polars as pl

from balance.analysis import aggregate, stats
from balance.core.errors import BalanceError, check_int
from balance.core.strategy import deterministic_alike


class Measure(NamedTuple):
    """One of a game's own rung columns, as its report part's ``ladder_measures(tables,
    manifest)`` gives them: a tuple (column, heading, frame[, kind[, note]])."""

    column: str
    heading: str
    frame: pl.DataFrame  # players and column (a rate may add column_lo, column_hi: its interval)
    kind: str = "rate"  # how a cell reads: "rate" (a %), "pp" (a size), "change" (a signed pp), "p", "text"
    note: str = ""  # what the column means, for the table's legend


KINDS = ("rate", "pp", "change", "p", "text")


@dataclass
class LadderResult:
    # rungs: strategy, players, games, seat gap with CI, p, capped, team win rate and wins
    # (cooperative), the game's measures, top card (null where the game has no such measure),
    # constant / all_tied (nothing to test) and deterministic (the strategy draws nothing)
    rungs: pl.DataFrame
    skill: pl.DataFrame  # strategy, against, players, games, share, lo, hi, fair, all_tied (empty: cooperative)
    labels: list[str]
    restrictable: str | None = "card"  # what restricted play denies (GameInfo), None: not measured
    measures: dict = None  # the game's own rung columns (ladder_measures): column -> Measure (frame empty)
    cooperative: bool = False  # rungs carry the team's win rate, not seat tests
    game: str | None = None  # the game's id (its declaration words the restricted play)


def run_ladder(game: str, ladder: list[str], players: list[int], games: int = 100_000, seed: int = 0,
               overrides: dict | None = None, threads: int | None = None, on_progress=None,
               play=None) -> LadderResult:
    """Every rung's balance numbers (each strategy in every seat) and each stronger strategy's
    share against the weakest, at every player count.

    play: what plays each run, with ``balance.core.api.simulate``'s arguments (default: it; the
    CLI passes ``StudyCheckpointer.simulate``, which keeps every finished run for --resume).
    """
    from balance.core.api import MAX_GAMES, simulate
    from balance.core.registry import get_game
    from balance.core.strategy import example_pool, parse_strategy

    simulate = play or simulate

    spec = get_game(game)
    labels = [parse_strategy(s, spec.strategies).label for s in ladder]
    given = dict(zip(labels, ladder))  # each run is given the spec itself: a tuned one's @DIR says where it came from
    if len(labels) < 2:
        raise BalanceError("give at least two strategies for a ladder, weakest first, e.g. "
                           f"--ladder {example_pool(spec.strategies, spec.default_strategy)}")
    if len(set(labels)) != len(labels):
        raise BalanceError(f"the ladder repeats a strategy: {', '.join(labels)}")
    check_int("games", games, 1, MAX_GAMES)  # -1 is out of range, not "too few to rotate"
    if not spec.cooperative and games < max(players):  # checked before any rung is played
        raise BalanceError(f"games={games} is too few to rotate over {max(players)} seats in the skill "
                           f"runs; give at least {max(players)}")
    restricted = spec.restrictable is not None  # the game declares restricted play
    declared = _declared_measures(spec)  # a fault in the game's declaration, before any rung is played
    rungs, skill = [], []
    for label in labels:
        run = simulate(game, players=players, games=games, seed=seed, strategies=[given[label]],
                       overrides=overrides, threads=threads, on_progress=on_progress,
                       card_strength="always" if restricted else None)
        rungs.append(_rung(label, run, spec))
    weakest = labels[0]
    # skill vs luck asks how often one player beats the others: a cooperative game's seats win or
    # lose together, so it has no such question (and its runs are not played)
    for label in labels[1:] if not spec.cooperative else []:
        for n in players:
            run = simulate(game, players=n, games=games, seed=seed, overrides=overrides, rotate=True,
                           strategies=[given[label]] + [given[weakest]] * (n - 1), threads=threads,
                           on_progress=on_progress)
            mine = run.seats.filter(pl.col("strategy") == label)
            count = int(mine["games"].sum())
            share, lo, hi = stats.share_ci(mine["win_share"].sum(), mine["win_share_sq_sum"].sum(), count)
            # every game an n-way tie: the share is 1/n whatever the skill, so it measures nothing
            fairness = aggregate.seat_fairness(run.seats).row(0, named=True)
            skill.append({"strategy": label, "against": weakest, "players": n, "games": count,
                          "share": share, "lo": lo, "hi": hi, "fair": aggregate.fair_share(fairness),
                          "all_tied": fairness["all_tied"]})
    skill = pl.DataFrame(skill, schema={"strategy": pl.String, "against": pl.String, "players": pl.Int64,
                                        "games": pl.Int64, "share": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
                                        "fair": pl.Float64, "all_tied": pl.Boolean})
    return LadderResult(pl.concat(rungs), skill, labels, spec.restrictable,
                        declared, spec.cooperative, spec.id)


def _declared_measures(spec) -> dict[str, Measure]:
    """The game's own rung columns (its report part's ``ladder_measures``): column -> Measure."""
    return {m.column: m for m in _measures(spec, {}, {})}


def _measures(spec, tables: dict, manifest: dict) -> list[Measure]:
    """The game's own rung columns from a run's tables and manifest (empty: the columns alone)."""
    part = spec.optional_part("report")
    if part is None or not hasattr(part, "ladder_measures"):
        return []
    given = list(part.ladder_measures(tables, manifest))
    # the game's declaration is at fault, not the user: say which entry
    wrong = [repr(m)[:60] for m in given if not isinstance(m, tuple) or not 3 <= len(m) <= len(Measure._fields)]
    if wrong:
        raise ValueError(f"{spec.id}'s ladder_measures give {', '.join(wrong)}; allowed: tuples of "
                         f"{', '.join(Measure._fields[:3])}[, {', '.join(Measure._fields[3:])}]")
    measures = [Measure(*m) for m in given]
    wrong = [f"{m.column} ({m.kind!r})" for m in measures if m.kind not in KINDS]
    if wrong:
        raise ValueError(f"{spec.id}'s ladder_measures give {', '.join(wrong)}; allowed kinds: {', '.join(KINDS)}")
    return measures


def read_ladder(directory: Path, game: str) -> LadderResult:
    """A finished ladder of ``game`` read back from the tables ``write_ladder`` wrote
    (rungs.parquet, skill.parquet; the rungs in ladder order): enough to write it again."""
    from balance.core.registry import get_game

    spec = get_game(game)
    rungs = pl.read_parquet(Path(directory) / "rungs.parquet")
    return LadderResult(rungs, pl.read_parquet(Path(directory) / "skill.parquet"),
                        list(dict.fromkeys(rungs["strategy"].to_list())), spec.restrictable, _declared_measures(spec),
                        spec.cooperative, spec.id)


def _rung(label: str, run, spec) -> pl.DataFrame:
    """One row per player count. games: the finished games (the seat test's); capped: games
    the turn cap stopped. A cooperative game has no seat test (its seats share one result): its
    rung carries the team's win rate (team_win, _lo, _hi) and reads as 'constant' for the seat
    columns. The game's own measures (its report part's ``ladder_measures``, e.g. avengers'
    heroes_success) follow; the top_card columns are null without a ``card_strength`` table."""
    if spec.cooperative:
        team = aggregate.team_rates(run.tables["outcomes"]).with_columns(pl.col("players").cast(pl.Int8))
        capped = run.tables["outcomes"].filter(pl.col("outcome") == "capped").group_by("players").agg(
            pl.col("games").sum().alias("capped")).with_columns(pl.col("players").cast(pl.Int8))
        out = team.join(capped, on="players", how="left").select(
            "players", (pl.col("games") - pl.col("capped").fill_null(0)).alias("games"),
            pl.col("capped").fill_null(0), gap=pl.lit(None, pl.Float64), gap_lo=pl.lit(None, pl.Float64),
            gap_hi=pl.lit(None, pl.Float64), p_value=pl.lit(None, pl.Float64),
            p_adjusted=pl.lit(None, pl.Float64), constant=pl.lit(True), all_tied=pl.lit(False),
            largest_seat_edge=pl.lit(None, pl.Float64), team_win=pl.col("rate"), team_win_lo=pl.col("lo"),
            team_win_hi=pl.col("hi"), team_won=pl.col("won"))
    else:
        fairness = aggregate.seat_fairness(run.seats)
        rates = aggregate.seat_rates(run.seats).group_by("players").agg(
            (pl.col("rate") - pl.col("fair")).abs().max().alias("largest_seat_edge"))
        out = (fairness.select("players", "games", "capped", "gap", "gap_lo", "gap_hi", "p_value",
                               "p_adjusted", "constant", "all_tied")
               .join(rates, on="players")
               .with_columns(team_win=pl.lit(None, pl.Float64), team_win_lo=pl.lit(None, pl.Float64),
                             team_win_hi=pl.lit(None, pl.Float64), team_won=pl.lit(None, pl.Int64)))
    for m in _measures(spec, run.tables, run.manifest):
        out = out.join(m.frame.with_columns(pl.col("players").cast(pl.Int8)), on="players", how="left")
    if run.tables.get("card_strength") is not None:
        from balance.core.card_trials import UNITS_TABLE

        effects = aggregate.card_effects(run.card_strength, run.tables.get(UNITS_TABLE))
        top = (effects.sort(pl.col("difference").abs(), descending=True)
               .group_by("players", maintain_order=True)
               .first().select("players", pl.col("card").alias("top_card"),
                               pl.col("difference").alias("top_card_effect"),
                               pl.col("p_adjusted").alias("top_card_p")))
        out = out.join(top, on="players")
    else:
        out = out.with_columns(top_card=pl.lit(None, pl.Int64), top_card_effect=pl.lit(None, pl.Float64),
                               top_card_p=pl.lit(None, pl.Float64))
    measures = [c for c in out.columns if c not in _RUNG_COLUMNS and c != "p_value"]
    deterministic = deterministic_alike(run.manifest) is not None  # why a rung can have no variation
    tuned = _tuned_players(run.manifest)
    return out.with_columns(strategy=pl.lit(label), deterministic=pl.lit(deterministic),
                            tuned_players=pl.lit(tuned, pl.Int64)).select(
        "strategy", "players", "games", "capped", "gap", "gap_lo", "gap_hi", "p_adjusted",
        "largest_seat_edge", "team_win", "team_win_lo", "team_win_hi", "team_won", *measures, "top_card",
        "top_card_effect", "top_card_p", "constant", "all_tied", "deterministic", "tuned_players").sort("players")


_RUNG_COLUMNS = {"strategy", "players", "games", "capped", "gap", "gap_lo", "gap_hi", "p_adjusted",
                 "largest_seat_edge", "team_win", "team_win_lo", "team_win_hi", "team_won", "top_card",
                 "top_card_effect", "top_card_p", "constant", "all_tied", "deterministic", "tuned_players"}


def _tuned_players(manifest: dict) -> int | None:
    """The player count a rung's strategy (one in every seat) was tuned at, when a tuned.toml
    gave it (``Strategy.tuned``); None otherwise."""
    tuned = {(s.get("tuned") or {}).get("players") for run in manifest["runs"] for block in run["seatings"]
             for s in block["strategies"]}
    return tuned.pop() if len(tuned) == 1 else None


def _untuned(rungs: pl.DataFrame) -> dict[str, tuple[int, list[int]]]:
    """label -> (the count it was tuned at, the ladder's other counts) for every rung strategy a
    tuned.toml gave (its ``tuned_players``; a ladder written before that column has none), as
    ``strategy.untuned_counts`` gives them for a run."""
    if "tuned_players" not in rungs.columns:
        return {}
    counts = sorted(set(rungs["players"].to_list()))
    tuned = rungs.filter(pl.col("tuned_players").is_not_null()).unique("strategy", maintain_order=True)
    return {r["strategy"]: (r["tuned_players"], [n for n in counts if n != r["tuned_players"]])
            for r in tuned.iter_rows(named=True) if counts != [r["tuned_players"]]}


def _team_leaders(rungs: pl.DataFrame) -> dict[int, tuple[dict, dict, float]]:
    """A cooperative ladder: per player count, the rung with the best team win rate, the next
    best, and the Holm-adjusted (over the player counts) p of Fisher's exact test of their win
    counts over every game played. The rungs play the same seeds (common random numbers), so
    their results are positively correlated where the strategies act alike; a test of
    independent samples then overstates the noise: it is conservative, not lax."""
    from scipy.stats import fisher_exact

    leaders, p = {}, []
    for (n,), g in rungs.group_by("players", maintain_order=True):
        best, second = g.sort("team_win", descending=True).head(2).iter_rows(named=True)
        played = [r["games"] + r["capped"] for r in (best, second)]
        p.append(fisher_exact([[best["team_won"], played[0] - best["team_won"]],
                               [second["team_won"], played[1] - second["team_won"]]]).pvalue)
        leaders[n] = (best, second)
    return {n: (*pair, float(q)) for (n, pair), q in zip(leaders.items(), stats.holm(p))}


def write_ladder(result: LadderResult, out: Path, title: str) -> dict:
    """ladder.md, ladder.html (self-contained), figures, rungs.parquet and skill.parquet."""
    from balance.core.registry import get_game
    from balance.analysis import plots
    from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Table, ci, code_list, counted,
                                           p_phrase, pct, pp, pvalue, to_html, to_markdown)
    from balance.analysis.report import apart, untuned_cautions

    out = Path(out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    result.rungs.write_parquet(out / "rungs.parquet")
    result.skill.write_parquet(out / "skill.parquet")
    # rungs with no variation have no gap to draw (a 0 with an interval would look like a finding)
    tested = result.rungs.filter(~pl.col("constant"))
    gap_fig = (plots.ladder_gaps(tested, out / "figures" / "ladder_gaps.png",
                                 [s for s in result.labels if s in set(tested["strategy"].to_list())])
               if tested.height else None)
    skill_fig = (plots.skill_vs_luck(result.skill, out / "figures" / "skill_vs_luck.png", result.labels)
                 if result.skill.height else None)
    item = result.restrictable or "card"
    passive = get_game(result.game).restrict_act[1] if result.game else "removed"
    # the columns a rung has: restricted play only for a game that declares it, the game's own
    # measures when its tables gave them, capped games only when there were some
    rungs = result.rungs
    has_top = rungs["top_card"].is_not_null().any()
    measures = [m for c, m in (result.measures or {}).items() if c in rungs.columns and rungs[c].is_not_null().any()]
    spans = {m.column: m.kind == "rate" and f"{m.column}_lo" in rungs.columns for m in measures}  # with a CI
    has_capped = bool((rungs["capped"] > 0).any())
    strength = f" or {item} strength" if has_top else ""
    # a caution comes before the lines it qualifies: a tuned strategy played at counts it was not tuned at
    plays = "its rungs play" if result.cooperative else "its rungs and skill runs play"
    verdict = untuned_cautions(_untuned(rungs), result.labels, plays)
    leaders = _team_leaders(result.rungs) if result.cooperative else None

    def rate(r):  # a rung's team win rate in words
        return f"{pct(r['team_win'])} (95% CI {ci(r['team_win_lo'], r['team_win_hi'])})"

    for n, g in result.rungs.group_by("players", maintain_order=True):
        if result.cooperative:
            best, second, p = leaders[n[0]]
            test = f"Fisher's exact test, Holm over the player counts, adjusted {p_phrase(p)}"
            if best["team_won"] == 0:
                verdict.append((f"{counted(n[0], 'player')}: the team never won, under any strategy of the "
                                "ladder, so no strategy can be told from another.",))
                continue
            verdict.append((f"{counted(n[0], 'player')}: the team wins most with ", Code(best["strategy"]),
                            f" in every seat, {rate(best)}, more than with ", Code(second["strategy"]),
                            f", the next, {rate(second)} ({test}).",) if p < 0.05 else
                           (f"{counted(n[0], 'player')}: the two strategies under which the team wins most are not "
                            "told apart: ", Code(best["strategy"]), f" {rate(best)} and ", Code(second["strategy"]),
                            f" {rate(second)} ({test}).",))
            continue
        unfair = g.filter(~pl.col("constant") & (pl.col("p_adjusted") < 0.05))["strategy"].to_list()
        if g["constant"].all():
            verdict.append((f"{n[0]} players: no strategy of the ladder could be tested: no seat's win "
                            "share varied under any of them.",))
        else:
            # one code span per label: a label may hold commas of its own (name:a=1,b=2)
            verdict.append((f"{n[0]} players: seat edges found under ", *code_list(unfair, " and "),
                            " (equal-seats test, Holm over the player counts).") if unfair else
                           (f"{n[0]} players: no seat edge found under any tested strategy of the ladder "
                            "(equal-seats test, Holm over the player counts).",))
        for r in g.filter(pl.col("constant")).iter_rows(named=True):
            stopped = r["games"] == 0 and r["capped"] > 0  # no game handed out a win
            what = ("the turn cap stopped every game" if stopped else f"every game was a {n[0]}-way tie"
                    if r["all_tied"] else "no seat's win share ever varied")
            why = (" — identical deterministic players make identical choices, so" if r["deterministic"]
                   and not stopped else ", so")
            verdict.append((f"{n[0]} players, ", Code(r["strategy"]), f" in every seat: {what}{why} this rung "
                            f"says nothing about seat fairness{strength} (no test shown).",))
    part = get_game(result.game).optional_part("report") if result.game else None
    if part is not None and hasattr(part, "ladder_verdict"):  # the game's lines on its own columns
        verdict += part.ladder_verdict(result.rungs, result.labels)
    if result.cooperative:
        verdict.append(("Skill vs luck: not measured — in a cooperative game every seat wins or loses with "
                        "the team, so no player beats another.",))
    for n, g in result.skill.group_by("players", maintain_order=True) if result.skill.height else []:
        if g["all_tied"].all():
            verdict.append((f"Skill vs luck, {n[0]} players: not measured — every game was a {n[0]}-way tie, "
                            f"so one player's share is 1/{n[0]} whatever its skill.",))
            continue
        if (g["fair"] == 0).all():  # no game handed out a win: nothing to share
            verdict.append((f"Skill vs luck, {n[0]} players: not measured — the turn cap stopped every game, "
                            "so no player could win.",))
            continue
        shares = g.filter(~pl.col("all_tied") & (pl.col("fair") > 0)).sort("share", descending=True)
        top = shares.row(0, named=True)
        # "most" only for a share whose interval is above every other's (report.apart), as elsewhere
        ranked = ("the highest share" if apart(shares, 0) else
                  "the highest share by estimate (its interval overlaps another's: not ranked)")
        verdict.append((f"Skill vs luck, {n[0]} players, {ranked}: one ", Code(top["strategy"]), " player among ",
                        Code(top["against"]), f" players wins {pct(top['share'])} "
                        f"(95% CI {ci(top['lo'], top['hi'])}), against {pct(top['fair'])} for pure luck.",))

    def tested(r, text):
        return "—" if r["constant"] else text

    def rung_row(r):
        row = [Code(r["strategy"]), str(r["players"]), f"{r['games']:,}"]
        if result.cooperative:
            row += [pct(r["team_win"]), ci(r["team_win_lo"], r["team_win_hi"])]
        else:
            row += [tested(r, pp(r["gap"])), tested(r, ci(r["gap_lo"], r["gap_hi"], " pp")),
                    tested(r, pvalue(r["p_adjusted"]))]
        if has_capped:
            row.append(pct(r["capped"] / max(r["games"] + r["capped"], 1)))
        for m in measures:  # a rate with {c}_lo and {c}_hi columns shows its interval beside it
            c, value = m.column, r[m.column]
            cell = ("—" if value is None else pct(value) if m.kind == "rate" else pp(value, m.kind == "change")
                    if m.kind in ("pp", "change") else pvalue(value) if m.kind == "p" else str(value))
            row += [cell] + ([ci(r[f"{c}_lo"], r[f"{c}_hi"]) if value is not None else "—"] if spans[c] else [])
        if has_top:
            row += [tested(r, str(r["top_card"])), tested(r, pp(r["top_card_effect"], signed=True)),
                    tested(r, pvalue(r["top_card_p"]))]
        return row

    rung_rows = [rung_row(r) for r in rungs.iter_rows(named=True)]
    header = (["strategy", "players", "games"]
              + (["team win rate", "95% CI"] if result.cooperative else ["seat gap", "95% CI", "seat test p"])
              + (["capped"] if has_capped else [])
              + [h for m in measures for h in ([m.heading, "95% CI"] if spans[m.column] else [m.heading])]
              + ([f"top {item}", "change without it" if passive == "removed" else f"change {passive}",
                  "its Holm p"] if has_top else []))
    # the columns of words among the numbers (the game's "text" measures, the top card's name)
    words = tuple(i for i, h in enumerate(header) if h in {m.heading for m in measures if m.kind == "text"}
                  or (has_top and h == f"top {item}"))
    explained = ("Every seat plays the strategy; games: the finished ones (the seat test's); seat "
                 "gap = best minus worst seat win rate with its 95% interval; p: equal-seats "
                 "chi-square, Holm-adjusted over the player counts; " if not result.cooperative else
                 "Every seat plays the strategy; games: the finished ones; team win rate: games the "
                 "team won over every game (Wilson 95% interval); ")
    if has_capped:
        explained += "capped: the share of games the turn cap stopped (they hand out no win); "
    explained += "".join(f"{m.note}; " for m in measures if m.note)  # in the order of the columns
    if has_top:
        mode = get_game(result.game).restrict_meaning("always") if result.game else "denied"
        mode = mode if passive == "removed" else passive  # a swap says what it swaps for
        explained += (f"top {item}: the {item} which, {mode} for one seat (restricted "
                      "play, paired on the same games), changes that seat's win rate most — "
                      f"negative: the {item} matters, positive: the seat does better "
                      f"{'without it' if passive == 'removed' else passive} — "
                      f"with its Holm-adjusted p over the rung's {item}s; ")
    explained += "a dash: no seat's share varied, nothing to test."
    # the ready command for the question the skill runs leave open (every strategy against every other)
    matchups = (f"balance matchups {result.game or 'GAME'} --pool {shlex.quote(','.join(result.labels))} "
                f"--players {result.skill['players'][0]}" if result.skill.height else "")
    # luck is 1/n of the games that handed out a win (aggregate.fair_share): below 1/n where games were capped
    capped_skill = any(abs(r["fair"] - 1.0 / r["players"]) > 1e-12 for r in result.skill.iter_rows(named=True))
    skill_rows = [[Code(r["strategy"]), Code(r["against"]), str(r["players"]), f"{r['games']:,}",
                   pct(r["share"]), ci(r["lo"], r["hi"]), pct(r["fair"])]
                  for r in result.skill.iter_rows(named=True)]
    sections = [
        Section("Verdict", [Bullets(verdict)]),
        Section("Balance by skill", [
            Para((explained,)),
            *([Figure("ladder_gaps", gap_fig, "Largest seat gap by strategy and player count (rungs "
                      "where no seat's share varied are left out)")] if gap_fig else []),
            Table(header, rung_rows, left=2, text=words),
        ]),
    ]
    if result.skill.height:
        sections.append(Section("Skill vs luck", [
            Para(("One player of the strategy, seat-rotated, among players of the ladder's first "
                  "strategy; pure luck would give 1/n" + (
                      " of the games that handed out a win (the turn cap stopped some, and they hand out none)."
                      if capped_skill else ".") + " Each is measured against the first strategy only: which "
                  "strategy of the ladder beats which is the question of ", Code(matchups), ".")),
            Figure("skill_vs_luck", skill_fig, "Win share of one skilled player against weaker players"),
            Table(["strategy", "against", "players", "games", "win share", "95% CI", "luck (1/n)"],
                  skill_rows, left=2),
        ]))
    md, page = out / "ladder.md", out / "ladder.html"
    md.write_text(to_markdown(title, sections, out), encoding="utf-8")
    page.write_text(to_html(title, sections), encoding="utf-8")
    return {"markdown": md, "html": page, "figures": [f for f in (gap_fig, skill_fig) if f]}
