"""Run reports: a Markdown file and one self-contained HTML file (plus PNG figures) per run.

``write_run_report(run_dir, out_dir=None)`` reads a run directory written by ``balance
simulate`` and writes into ``out_dir`` (default: the run directory itself, so a run and its
report stay together and ``--force`` on the run replaces both):

- ``report.md``    GitHub-flavoured Markdown; figures linked as ``figures/<name>.png``
- ``report.html``  the same content in one file: inline CSS, figures embedded as base64
  ``data:`` URIs, no external links, so it opens offline and can be mailed as is
- ``figures/*.png``

Both documents are rendered from one list of sections (paragraphs, bullet lists, tables and
figures), so they cannot disagree. Every number comes from ``balance.aggregate`` frames (a few
rows per player count), so a billion-game run reports as fast as a thousand-game one.
"""
from __future__ import annotations

import base64
import html
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from balance import aggregate, plots, schema, stats
from balance.errors import BalanceError

ALPHA = 0.05  # two-sided test level: "significant" in the report means p < ALPHA
LEVEL = f"{aggregate.CONFIDENCE:.0%}"
TABLE_FILES = {"seats": schema.SEATS, "scores": schema.SCORES, "cards": schema.CARDS,
               "villains": schema.VILLAINS}
MANIFEST_KEYS = ("game", "players", "games", "seed", "runs")
# Columns added to the format after the first runs were written: a report works without them.
OPTIONAL_COLUMNS = {"win_share_sq_sum"}
FIGURES = ("seat_rates", "strategy_seat", "matchups", "scores", "card_strength", "villains")
SECTIONS = ("Verdict", "Run", "Seat fairness", "Player count", "Strategies", "Scores",
            "Card strength", "Villains", "Methods")


# --------------------------------------------------------------------------------------------
# entry point


def write_run_report(run_dir, out_dir=None, method: str = "wilson") -> dict:
    """Write report.md, report.html and figures/*.png for the run in ``run_dir``.

    out_dir: where to write; default ``run_dir`` itself. method: interval of counted rates,
    ``wilson`` or ``clopper-pearson`` (fractional win shares keep their own intervals). Returns
    ``{"markdown": Path, "html": Path, "figures": [Path, ...]}``.
    Raises BalanceError when ``run_dir`` is not a readable run directory (the message names
    the path and the missing or broken file) or ``out_dir`` cannot be written.
    """
    if method not in stats.PROPORTION_METHODS:
        raise BalanceError(f"unknown interval {method!r}; allowed: {', '.join(stats.PROPORTION_METHODS)}")
    run_dir = Path(run_dir)
    manifest, tables = load_run(run_dir)
    out_dir = run_dir if out_dir is None else Path(out_dir)
    analysis = analyse(tables, method)
    try:
        figures = draw_figures(analysis, tables["scores"], out_dir / "figures")
        sections = build_sections(manifest, analysis, figures)
        title = f"Balance report: {manifest.get('title', manifest['game'])}"
        md_path, html_path = out_dir / "report.md", out_dir / "report.html"
        md_path.write_text(to_markdown(title, sections, out_dir), encoding="utf-8")
        html_path.write_text(to_html(title, sections), encoding="utf-8")
    except OSError as e:
        raise BalanceError(f"cannot write the report to {str(out_dir)!r}: {e.strerror or e}") from None
    return {"markdown": md_path, "html": html_path, "figures": list(figures.values())}


def load_run(run_dir: Path) -> tuple[dict, dict[str, pl.DataFrame]]:
    """The manifest and the four tables of a run directory, checked; BalanceError if unusable."""
    if not run_dir.is_dir():
        raise BalanceError(f"run directory {str(run_dir)!r} does not exist or is not a directory")
    needed = ["manifest.json", *(f"{name}.parquet" for name in TABLE_FILES)]
    missing = [name for name in needed if not (run_dir / name).is_file()]
    if missing:
        raise BalanceError(f"{str(run_dir)!r} is not a run directory: missing {', '.join(missing)} "
                           "(write one with `balance simulate ... --out DIR`)")
    path = run_dir / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BalanceError(f"{str(path)!r} is not a readable JSON manifest: {e}") from None
    absent = [key for key in MANIFEST_KEYS if not isinstance(manifest, dict) or key not in manifest]
    if not absent and not all(isinstance(run, dict) and {"players", "rules", "seatings"} <= run.keys()
                              for run in manifest["runs"]):
        absent = ["runs[].players/rules/seatings"]
    if absent:
        raise BalanceError(f"{str(path)!r} lacks {', '.join(absent)}; allowed: a manifest written by "
                           "`balance simulate`")
    tables = {}
    for name, columns in TABLE_FILES.items():
        path = run_dir / f"{name}.parquet"
        try:
            table = pl.read_parquet(path)
        except (OSError, pl.exceptions.PolarsError) as e:
            raise BalanceError(f"{str(path)!r} is not a readable Parquet table: {e}") from None
        lacking = [c for c in columns if c not in table.columns and c not in OPTIONAL_COLUMNS]
        if lacking or table.is_empty():
            what = f"lacks columns {', '.join(lacking)}" if lacking else "has no rows"
            raise BalanceError(f"{str(path)!r} {what}; allowed: a table written by `balance simulate`")
        tables[name] = table
    pairs = run_dir / "pairs.parquet"  # head to head; runs written before it existed lack it
    if pairs.is_file():
        try:
            tables["pairs"] = pl.read_parquet(pairs)
        except (OSError, pl.exceptions.PolarsError) as e:
            raise BalanceError(f"{str(pairs)!r} is not a readable Parquet table: {e}") from None
    return manifest, tables


# --------------------------------------------------------------------------------------------
# numbers


@dataclass
class Analysis:
    """Every frame the report shows, computed once (each a few rows per player count)."""

    seat_rates: pl.DataFrame
    fairness: pl.DataFrame
    strategy_seat: pl.DataFrame
    strategy_rates: pl.DataFrame
    player_counts: pl.DataFrame
    score_summary: pl.DataFrame
    cards: pl.DataFrame
    villains: pl.DataFrame
    several_strategies: bool
    matchups: pl.DataFrame | None  # head to head by strategy (runs with pairs.parquet)
    observed_variance: bool  # seats kept win_share_sq_sum: normal intervals, not Wilson
    method: str = "wilson"  # interval of counted rates


def analyse(tables: dict[str, pl.DataFrame], method: str = "wilson") -> Analysis:
    seats = tables["seats"]
    fairness = aggregate.seat_fairness(seats)
    return Analysis(
        seat_rates=aggregate.seat_rates(seats, method),
        fairness=fairness,
        strategy_seat=aggregate.strategy_seat(seats, method),
        strategy_rates=strategy_rates(seats),
        player_counts=player_counts(seats, fairness),
        score_summary=aggregate.score_summary(tables["scores"]),
        cards=aggregate.card_strength(tables["cards"], method, correction="holm"),
        villains=aggregate.villain_strength(tables["villains"], method),
        several_strategies=seats["strategy"].n_unique() > 1,
        matchups=aggregate.matchups(tables["pairs"], method) if "pairs" in tables else None,
        method=method,
        observed_variance="win_share_sq_sum" in seats.columns,
    )


def _share_ci(frame: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rate, lo, hi) of win_share / games, with aggregate.py's choice of interval."""
    share = frame["win_share"].to_numpy().astype(float)
    games = frame["games"].to_numpy().astype(float)
    if "win_share_sq_sum" in frame.columns:
        return stats.mean_ci(share, frame["win_share_sq_sum"].to_numpy().astype(float), games,
                             aggregate.CONFIDENCE)
    lo, hi = stats.wilson(share, games, aggregate.CONFIDENCE)
    return share / games, lo, hi


def strategy_rates(seats: pl.DataFrame) -> pl.DataFrame:
    """Per (players, strategy), pooled over seats: win rate per seat-game with CI, mean score.

    A strategy holding two seats of one game has two seat-games there; their win shares are
    negatively correlated (they cannot both win outright), so treating seat-games as
    independent overstates the variance: the interval is conservative.
    """
    sums = ["games", "win_share", "score_sum",
            *(["win_share_sq_sum"] if "win_share_sq_sum" in seats.columns else [])]
    pooled = seats.group_by("players", "strategy").agg(pl.col(sums).sum()).sort("players", "strategy")
    rate, lo, hi = _share_ci(pooled)
    return pooled.with_columns(rate=pl.Series(rate), lo=pl.Series(lo), hi=pl.Series(hi),
                               fair=1.0 / pl.col("players"),
                               mean_score=pl.col("score_sum") / pl.col("games"))


def player_counts(seats: pl.DataFrame, fairness: pl.DataFrame) -> pl.DataFrame:
    """Per player count: games, mean score (CI), score sd and the share of games with a tie.

    Every game hands out exactly one win (seat_fairness checks that the shares sum to the game
    count), so the games without an outright winner are the tied ones.
    """
    pooled = (seats.group_by("players")
              .agg(pl.col("games", "wins_outright", "wins_shared", "score_sum", "score_sq_sum").sum())
              .rename({"games": "seat_games"}).sort("players")
              .join(fairness.select(pl.col("players").cast(seats["players"].dtype), "games"), on="players"))
    mean, mean_lo, mean_hi = stats.mean_ci(pooled["score_sum"].to_numpy().astype(float),
                                           pooled["score_sq_sum"].to_numpy().astype(float),
                                           pooled["seat_games"].to_numpy().astype(float),
                                           aggregate.CONFIDENCE)
    n = pooled["seat_games"].to_numpy().astype(float)
    sd = np.sqrt(np.maximum(pooled["score_sq_sum"].to_numpy() - n * mean**2, 0.0) / (n - 1))
    tied = (pooled["games"] - pooled["wins_outright"]).to_numpy().astype(float)
    tie_lo, tie_hi = stats.wilson(tied, pooled["games"].to_numpy().astype(float), aggregate.CONFIDENCE)
    return pooled.with_columns(
        mean_score=pl.Series(mean), mean_lo=pl.Series(mean_lo), mean_hi=pl.Series(mean_hi),
        score_sd=pl.Series(sd), tied_games=pl.Series(tied), tie_rate=pl.Series(tied) / pl.col("games"),
        tie_lo=pl.Series(tie_lo), tie_hi=pl.Series(tie_hi),
        winners_per_tie=pl.col("wins_shared") / pl.Series(tied),
    )


# --------------------------------------------------------------------------------------------
# figures


def draw_figures(a: Analysis, scores: pl.DataFrame, fig_dir: Path) -> dict[str, Path]:
    """Draw the report's figures into ``fig_dir``; returns name -> path in report order.

    A figure this run has no use for (the strategy heatmap of a one-strategy run) is removed
    if an earlier report left it there, so the directory always matches the report.
    """
    fig_dir.mkdir(parents=True, exist_ok=True)
    drawn = {"seat_rates": plots.seat_rates(a.seat_rates, fig_dir / "seat_rates.png")}
    if a.several_strategies:
        drawn["strategy_seat"] = plots.strategy_seat_heatmap(a.strategy_seat, fig_dir / "strategy_seat.png")
        if a.matchups is not None:
            drawn["matchups"] = plots.matchups(a.matchups, fig_dir / "matchups.png")
    drawn["scores"] = plots.score_distributions(scores, fig_dir / "scores.png")
    drawn["card_strength"] = plots.card_strength(a.cards, fig_dir / "card_strength.png")
    drawn["villains"] = plots.villains(a.villains, fig_dir / "villains.png")
    for name in set(FIGURES) - set(drawn):
        (fig_dir / f"{name}.png").unlink(missing_ok=True)
    return drawn


# --------------------------------------------------------------------------------------------
# number formatting (one place, so the Markdown and HTML tables agree)


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x) -> str:
    """A rate as a percentage with 2 decimals: 0.33437 -> '33.44%'."""
    return "—" if _missing(x) else f"{100 * x:.2f}%"


def pp(x, signed: bool = False) -> str:
    """A difference of rates in percentage points: 0.0056 -> '0.56 pp' ('+0.56 pp' signed)."""
    if _missing(x):
        return "—"
    value = round(100 * x, 2) + 0.0  # + 0.0 turns -0.0 into 0.0: no '-0.00 pp'
    return f"{value:{'+' if signed else ''}.2f} pp"


def ci(lo, hi, suffix: str = "%") -> str:
    """An interval of rates: '33.06 to 33.82%' (suffix ' pp' for differences)."""
    if _missing(lo) or _missing(hi):
        return "—"
    return f"{100 * lo:.2f} to {100 * hi:.2f}{suffix}"


def count(n) -> str:
    return "—" if _missing(n) else f"{int(n):,}"


def num(x, digits: int = 2) -> str:
    return "—" if _missing(x) or (isinstance(x, float) and math.isinf(x)) else f"{x:.{digits}f}"


def pvalue(p) -> str:
    """'< 1e-6', '3.1e-05', '0.004', '0.41': precision where it matters, no false zeros."""
    if _missing(p):
        return "—"
    if p < 1e-6:
        return "< 1e-6"
    if p < 1e-3:
        return f"{p:.1e}"
    return f"{p:.3f}" if p < 0.01 else f"{p:.2f}"


def p_phrase(p) -> str:
    """'p < 1e-6' or 'p = 0.41'."""
    text = pvalue(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


# --------------------------------------------------------------------------------------------
# the document model: sections of paragraphs, bullet lists, tables and figures


class Code(str):
    """Inline code: identifiers and values copied from the run (no escaping surprises)."""


class Strong(str):
    """Emphasis for the words a reader must not miss (significant / fair)."""


@dataclass
class Para:
    parts: tuple  # str | Code | Strong


@dataclass
class Bullets:
    items: list  # each a tuple of parts


@dataclass
class Table:
    header: list[str]
    rows: list[list]  # cells: str or Code
    left: int = 1  # the first ``left`` columns are labels (left-aligned); the rest are numbers


@dataclass
class Figure:
    name: str
    path: Path
    caption: str


@dataclass
class Section:
    title: str
    blocks: list


# --------------------------------------------------------------------------------------------
# sections


def build_sections(manifest: dict, a: Analysis, figures: dict[str, Path]) -> list[Section]:
    """The report's sections in reading order (Strategies only when the run has several)."""
    comparable = _seats_comparable(manifest, a)
    sections = [
        verdict_section(a, comparable),
        run_section(manifest),
        seat_section(a, figures, comparable),
        player_count_section(a),
    ]
    if a.several_strategies:
        sections.append(strategy_section(a, figures, manifest))
    sections += [score_section(a, figures), card_section(a, figures),
                 villain_section(a, figures), methods_section(a)]
    return sections


def _seats_comparable(manifest: dict, a: Analysis) -> bool:
    """Seats differ only by position when one strategy fills every seat or --rotate was used.

    Otherwise each seat has its own strategy and a seat gap is a strategy gap as well.
    """
    return not a.several_strategies or bool(manifest.get("rotate"))


def _rows(frame: pl.DataFrame):
    return frame.iter_rows(named=True)


def _farthest_seat(rates: pl.DataFrame, players) -> dict:
    """The seat whose win rate is farthest from fair at this player count."""
    g = rates.filter(pl.col("players") == players)
    return g.row(int((g["rate"] - g["fair"]).abs().arg_max()), named=True)


def verdict_section(a: Analysis, comparable: bool) -> Section:
    """Plain-words answers first: are seats fair, which strategy/card/villain stands out."""
    seat_lines = []
    for f in _rows(a.fairness):
        n = f["players"]
        seat = _farthest_seat(a.seat_rates, n)
        fair = 1.0 / n
        if f["p_adjusted"] < ALPHA:
            seat_lines.append((
                f"{n} players: seat {seat['seat']} wins {_pm(seat)} vs fair "
                f"{pct(fair)} — ", Strong("significant"), f" (Holm-adjusted {p_phrase(f['p_adjusted'])}); best − worst "
                f"seat {pp(f['gap'])} ({LEVEL} CI {ci(f['gap_lo'], f['gap_hi'], ' pp')}).",
            ))
        else:
            seat_lines.append((
                f"{n} players: ", Strong("no seat differs"), f" from the fair {pct(fair)} (largest "
                f"seat gap from fair {pp(abs(seat['rate'] - fair))}, Holm-adjusted "
                f"{p_phrase(f['p_adjusted'])}); this "
                f"run can detect seat edges of {pp(f['detectable_edge'])}.",
            ))
    blocks = [Para((Strong("Seats."),)), Bullets(seat_lines)]
    if not comparable:
        blocks.append(Para(("Caution: each seat kept its own strategy (no --rotate), so seat "
                            "differences above include strategy differences.",)))
    if a.several_strategies:
        blocks += [Para((Strong("Strategies"), " (win rate per seat played, pooled over seats)."),),
                   Bullets(_strategy_lines(a.strategy_rates))]
    blocks += [Para((Strong("Cards"), " (win rate of a player in games where the card won them tokens)."),),
               Bullets(_card_lines(a.cards)),
               Para((Strong("Villains"), " (share of fights the heroes win)."),),
               Bullets(_villain_lines(a.villains))]
    return Section("Verdict", blocks)


def _strategy_lines(rates: pl.DataFrame) -> list[tuple]:
    lines = []
    for (n,), g in rates.group_by("players", maintain_order=True):
        best = g.row(int(g["rate"].arg_max()), named=True)
        worst = g.row(int(g["rate"].arg_min()), named=True)
        lines.append((f"{n} players: strongest ", Code(best["strategy"]), f" {_pm(best)}, weakest ",
                      Code(worst["strategy"]), f" {_pm(worst)} (fair {pct(1.0 / n)})."))
    return lines


def _pm(row: dict, rate: str = "rate", lo: str = "lo", hi: str = "hi") -> str:
    """'36.21% ± 0.38%': a rate and the half-width of its interval."""
    return f"{pct(row[rate])} ± {100 * (row[hi] - row[lo]) / 2:.2f}%"


def _card_lines(cards: pl.DataFrame) -> list[tuple]:
    lines = []
    for (n,), g in cards.group_by("players", maintain_order=True):
        significant = g.filter(pl.col("p_adjusted") < ALPHA)
        if significant.is_empty():
            lines.append((f"{n} players: no card's win rate differs significantly from the other "
                          f"cards' (smallest Holm-adjusted {p_phrase(g['p_adjusted'].min())}).",))
            continue
        effect = (significant["win_rate_rewarded"] - significant["others"]).abs()
        c = significant.row(int(effect.arg_max()), named=True)
        lines.append((f"{n} players: card {c['card']} stands out — its player wins "
                      f"{_pm(c, 'win_rate_rewarded', 'win_rate_rewarded_lo', 'win_rate_rewarded_hi')} "
                      f"of the games where it won tokens vs {pct(c['others'])} for the other cards (Holm-adjusted "
                      f"{p_phrase(c['p_adjusted'])}); {significant.height} of {g.height} cards differ "
                      "significantly.",))
    return lines


def _villain_lines(villains: pl.DataFrame) -> list[tuple]:
    lines = []
    for (n,), g in villains.group_by("players", maintain_order=True):
        hard = g.row(int(g["success_rate"].arg_min()), named=True)
        easy = g.row(int(g["success_rate"].arg_max()), named=True)
        lines.append((f"{n} players: hardest ", Code(hard["villain"]), f" ({_villain_facts(hard)}), "
                      "easiest ", Code(easy["villain"]), f" ({_villain_facts(easy)})."))
    return lines


def _villain_facts(row: dict) -> str:
    rate = _pm(row, "success_rate", "success_rate_lo", "success_rate_hi")
    return f"battle {row['battle']}, strength {row['strength']}, beaten {rate}"


def _value(v, nested: bool = False) -> str:
    """A manifest value as compact text: lists joined (inner ones bracketed), mappings as k=v,
    booleans lower-case, empty or missing as a dash."""
    if isinstance(v, bool):
        return str(v).lower()
    if v is None or (isinstance(v, (list, tuple, dict)) and not v):
        return "—"
    if isinstance(v, (list, tuple)):
        text = ", ".join(_value(x, nested=True) for x in v)
        return f"[{text}]" if nested else text
    if isinstance(v, dict):
        return ", ".join(f"{k}={_value(x, nested=True)}" for k, x in v.items())
    return str(v)


def _code(v) -> Code | str:
    """A manifest value as inline code, or a plain dash when there is none."""
    text = _value(v)
    return text if text == "—" else Code(text)


# Manifest keys the Run section lays out itself; any other key is listed as JSON after them.
_RUN_KEYS = {"game", "title", "rules_version", "package_version", "seed", "games", "players",
             "rotate", "variant", "runs", "chunk_size", "keep_games", "timing"}


def run_section(manifest: dict) -> Section:
    """Everything needed to reproduce the run: game, counts, seed, strategies, every rule."""
    variant = manifest.get("variant") or {}
    timing = manifest.get("timing") or {}
    facts = [
        ("game", Code(manifest["game"])), ("title", manifest.get("title", "—")),
        ("player counts", _value(manifest["players"])), ("games per player count", count(manifest["games"])),
        ("seed", Code(str(manifest["seed"]))),
        ("seats rotated (--rotate)", _value(manifest.get("rotate", False))),
        ("variant file", _value(variant.get("file"))), ("rule overrides", _value(variant.get("overrides"))),
        ("package version", Code(str(manifest.get("package_version", "—")))),
        ("rules version", Code(str(manifest.get("rules_version", "—")))),
        ("chunk size", count(manifest["chunk_size"]) if "chunk_size" in manifest else "—"),
        ("per-game rows kept", _value(manifest.get("keep_games", False))),
        ("simulation time", f"{timing['seconds']} s ({count(timing.get('games_per_second'))} games/s, "
                            f"{timing.get('machine', '?')}, Python {timing.get('python', '?')})"
         if "seconds" in timing else "—"),
    ]
    facts += [(key, Code(json.dumps(value))) for key, value in manifest.items() if key not in _RUN_KEYS]
    runs = manifest["runs"]
    return Section("Run", [
        Para(("Reproduce any number below with the same game, rules, strategies, seed and game count.",)),
        Table(["item", "value"], [[k, v] for k, v in facts], left=2),
        Para((Strong("Strategies"), " (every parameter, defaults included):"),),
        _strategy_table(runs),
        Para((Strong("Seatings:"), " which strategy sat in which seat, per block of games (seats "
              "are numbered from 0; seat 0 is the first player)."),),
        _seating_table(runs),
        Para((Strong("Rules"), " per player count (every parameter of the rules):"),),
        _rules_table(runs),
    ])


def _strategy_table(runs: list) -> Table:
    seen = {}
    for run in runs:
        for block in run["seatings"]:
            for s in block["strategies"]:
                seen.setdefault(s["label"], s)
    return Table(["label", "strategy", "parameters"],
                 [[Code(label), Code(s["name"]), _code(s.get("params"))] for label, s in seen.items()],
                 left=3)


def _seating_table(runs: list) -> Table:
    most = max(run["players"] for run in runs)
    rows = []
    for run in runs:
        for i, block in enumerate(run["seatings"]):
            by_seat = {s["seat"]: Code(s["label"]) for s in block["strategies"]}
            last = block["first_game"] + block["games"] - 1
            rows.append([str(run["players"]), str(i), f"{block['first_game']:,} to {last:,}",
                         count(block["games"]), *(by_seat.get(seat, "") for seat in range(most))])
    return Table(["players", "block", "games (indices)", "games", *(f"seat {s}" for s in range(most))],
                 rows, left=4 + most)


def _rules_table(runs: list) -> Table:
    keys = list(dict.fromkeys(k for run in runs for k in run["rules"]))
    return Table(["parameter", *(f"{run['players']} players" for run in runs)],
                 [[Code(k), *(_code(run["rules"].get(k)) for run in runs)] for k in keys],
                 left=len(runs) + 1)


def seat_section(a: Analysis, figures: dict, comparable: bool) -> Section:
    """Seat win rates, the equal-seats test, the gap and the detectable edge."""
    rates, fairness = a.seat_rates, a.fairness
    seat_rows = [[str(r["players"]), str(r["seat"]), count(r["games"]), pct(r["rate"]), ci(r["lo"], r["hi"]),
                  pp(r["rate"] - r["fair"], signed=True), count(r["wins_outright"]), count(r["wins_shared"]),
                  num(r["mean_score"])] for r in _rows(rates)]
    test_rows = [[str(f["players"]), count(f["games"]), num(f["chi2"]), str(f["dof"]),
                  pvalue(f["p_value"]), pvalue(f["p_adjusted"]), str(f["best_seat"]),
                  str(f["worst_seat"]), pp(f["gap"]), ci(f["gap_lo"], f["gap_hi"], " pp"),
                  pp(f["detectable_edge"]),
                  "differ" if f["p_adjusted"] < ALPHA else "no difference found"]
                 for f in _rows(fairness)]
    blocks = [
        Para(("Win rate of each seat (a tied win counts 1/k to each of the k winners), pooled over "
              "strategies, with its 95% interval; the dashed line is the fair rate 1/n.",)),
        Figure("seat_rates", figures["seat_rates"],
               "Win rate per seat with 95% intervals; dashed: fair 1/n."),
        Table(["players", "seat", "games", "win rate", f"{LEVEL} CI", "vs fair", "outright wins",
               "shared wins", "mean score"], seat_rows, left=2),
        Para(("Test of equal seats: Pearson chi-square of the seat win shares against 1/n each "
              "(dof = n − 1). The gap is the best seat's rate minus the worst seat's. The detectable "
              "edge is the smallest edge of one seat over 1/n that a run of this size finds with "
              "90% power at the 5% level (", Code("stats.detectable_rate_edge"), ").")),
        Table(["players", "games", "chi-square", "dof", "p", "Holm p", "best seat", "worst seat", "gap",
               f"gap {LEVEL} CI", "detectable edge", "seats"], test_rows, left=1),
        Para((_interval_statement(a), " The gap's interval is for the two seats picked after "
              "looking at the data, so it is biased away from 0: read fairness from the test's p, "
              "and the gap for its size.")),
    ]
    if not comparable:
        blocks.append(Para(("Caution: each seat kept its own strategy (no --rotate), so seat "
                            "differences include strategy differences.",)))
    return Section("Seat fairness", blocks)


def _interval_statement(a: Analysis) -> str:
    """Which interval the seat and strategy win rates carry (aggregate.py picks it from the columns)."""
    if a.observed_variance:
        return ("Win-rate intervals: normal interval on the per-game win share with its observed "
                "variance (the run kept the sum of squared shares), exact to first order with ties.")
    return ("Win-rate intervals: Wilson interval on the summed win share; a share between 0 and 1 "
            "varies at most as much as a win-or-lose outcome, so with ties the interval is conservative.")


def player_count_section(a: Analysis) -> Section:
    """One row per player count: seat spread, scores and ties side by side."""
    fairness = {f["players"]: f for f in _rows(a.fairness)}
    rows = []
    for r in _rows(a.player_counts):
        f = fairness[r["players"]]
        rows.append([str(r["players"]), count(r["games"]), pct(1.0 / r["players"]), pp(f["gap"]),
                     pvalue(f["p_value"]), pp(f["detectable_edge"]), num(r["mean_score"]),
                     f"{r['mean_lo']:.2f} to {r['mean_hi']:.2f}", num(r["score_sd"]), pct(r["tie_rate"]),
                     ci(r["tie_lo"], r["tie_hi"]), num(r["winners_per_tie"])])
    return Section("Player count", [
        Para(("The same measures side by side for each player count. Seat gap: best minus worst "
              "seat; mean score and its spread over every seat-game; tied games: games whose top "
              "score was shared (the win is then split), with the average number of winners sharing it.",)),
        Table(["players", "games", "fair rate", "seat gap", "seat test p", "detectable edge",
               "mean score", f"{LEVEL} CI", "score sd", "tied games", f"{LEVEL} CI", "winners per tie"],
              rows, left=1),
    ])


def strategy_section(a: Analysis, figures: dict, manifest: dict) -> Section:
    """Strategy x seat heatmap, strategy rates pooled over seats and by seat."""
    pooled = [[str(r["players"]), Code(r["strategy"]), count(r["games"]), pct(r["rate"]),
               ci(r["lo"], r["hi"]), pp(r["rate"] - r["fair"], signed=True), num(r["mean_score"])]
              for r in _rows(a.strategy_rates)]
    by_seat = [[str(r["players"]), Code(r["strategy"]), str(r["seat"]), count(r["games"]), pct(r["rate"]),
                ci(r["lo"], r["hi"]), pp(r["rate"] - r["fair"], signed=True), num(r["mean_score"])]
               for r in _rows(a.strategy_seat)]
    design = ("Strategies were rotated over the seats (--rotate), so every strategy played every "
              "seat equally often and seat effects cancel out of these comparisons."
              if manifest.get("rotate") else
              "Each seat kept one strategy (no --rotate): a strategy's rate also carries its "
              "seats' effects.")
    return Section("Strategies", [
        Para((design,)),
        Figure("strategy_seat", figures["strategy_seat"],
               "Win rate by strategy and seat; red above the fair 1/n, blue below."),
        Para(("Pooled over seats (rate per seat-game: a strategy holding two seats of a game counts "
              "two seat-games):",)),
        Table(["players", "strategy", "seat-games", "win rate", f"{LEVEL} CI", "vs fair", "mean score"],
              pooled, left=2),
        Para(("By seat:",)),
        Table(["players", "strategy", "seat", "games", "win rate", f"{LEVEL} CI", "vs fair", "mean score"],
              by_seat, left=3),
        *_matchup_blocks(a, figures),
    ])


def _matchup_blocks(a: Analysis, figures: dict) -> list:
    """Head to head: how often one strategy's seat outscored another's in the same game."""
    if a.matchups is None:
        return []
    rows = [[str(r["players"]), Code(r["strategy"]), Code(r["opponent_strategy"]), count(r["games"]),
             count(r["ahead"]), count(r["level"]), pct(r["rate"]), ci(r["lo"], r["hi"])]
            for r in _rows(a.matchups)]
    return [
        Para(("Matchups: how often a seat of the row strategy outscored a seat of the column "
              "strategy in the same game (level scores count half; 50% is even), pooled over "
              "every pair of seats holding them.",)),
        Figure("matchups", figures["matchups"], "Head to head: row strategy beats column strategy"),
        Table(["players", "strategy", "opponent", "seat pairs", "ahead", "level", "score",
               f"{LEVEL} CI"], rows, left=3),
    ]


def score_section(a: Analysis, figures: dict) -> Section:
    """Score distributions and their summary per player count and strategy."""
    rows = [[str(r["players"]), Code(r["strategy"]), count(r["games"]), num(r["mean"]), num(r["sd"]),
             count(r["q25"]), count(r["median"]), count(r["q75"]), count(r["max"])]
            for r in _rows(a.score_summary)]
    return Section("Scores", [
        Para(("Distribution of final scores (share of seat-games with each score), per player count "
              "and strategy.",)),
        Figure("scores", figures["scores"], "Final-score distribution per player count and strategy."),
        Table(["players", "strategy", "seat-games", "mean", "sd", "25th pct", "median", "75th pct", "max"],
              rows, left=2),
    ])


def card_section(a: Analysis, figures: dict) -> Section:
    """Per card value: reward rate, win rate when rewarded, raw and Holm-adjusted p."""
    rows = [[str(r["players"]), str(r["card"]), count(r["played"]), pct(r["reward_rate"]),
             ci(r["reward_rate_lo"], r["reward_rate_hi"]), pct(r["cancel_rate"]), num(r["tokens_per_play"]),
             count(r["games_rewarded"]), pct(r["win_rate_rewarded"]),
             ci(r["win_rate_rewarded_lo"], r["win_rate_rewarded_hi"]),
             pp(r["win_rate_rewarded"] - r["others"], signed=True), pvalue(r["p_value"]),
             pvalue(r["p_adjusted"])]
            for r in _rows(a.cards)]
    return Section("Card strength", [
        Para(("For each card value, pooled over seats and strategies: how often a play of it won "
              "tokens, and how often its player won the game when it did. Winning tokens goes with "
              "winning whatever the card, so each card is compared with the other cards of its "
              "player count (vs others): p is a two-sided two-proportion z-test (approximate: one "
              "game can count for several cards); the Holm correction (family-wise error) is "
              "applied across the card values of each player count.",)),
        Figure("card_strength", figures["card_strength"],
               "Top: share of plays that won tokens. Bottom: win rate in games where the card won "
               "tokens; dashed: fair 1/n."),
        Table(["players", "card", "plays", "won tokens", f"{LEVEL} CI", "cancelled",
               "tokens per play", "games it won tokens", "win rate then", f"{LEVEL} CI", "vs others",
               "p", "Holm p"], rows, left=2),
        Para(("A card's win rate reflects how the strategies in this run use it as well as the card "
              "itself; compare cards within one strategy mix.",)),
    ])


def villain_section(a: Analysis, figures: dict) -> Section:
    """Heroes' success rate and token flow per villain."""
    rows = [[str(r["players"]), str(r["battle"]), Code(r["villain"]), str(r["strength"]), count(r["fought"]),
             count(r["beaten"]), pct(r["success_rate"]), ci(r["success_rate_lo"], r["success_rate_hi"]),
             num(r["tokens_per_fight"]), num(r["lost_per_fight"])] for r in _rows(a.villains)]
    return Section("Villains", [
        Para(("How often the heroes beat each villain, in battle then strength order, with tokens "
              "handed out (rewards and centre) and tokens lost per fight.",)),
        Figure("villains", figures["villains"], "Heroes' success rate per villain with 95% intervals."),
        Table(["players", "battle", "villain", "strength", "fights", "beaten", "success rate",
               f"{LEVEL} CI", "tokens per fight", "lost per fight"], rows, left=3),
    ])


def methods_section(a: Analysis) -> Section:
    """Intervals, tests and corrections behind every number, at the report's level."""
    return Section("Methods", [Bullets([
        (f"Level: every interval is a two-sided {LEVEL} interval; \"significant\" means p < {ALPHA} "
         "in a two-sided test after correction: the seat tests of the player counts are Holm-adjusted "
         "together, and so are the card tests of each player count.",),
        ("Win shares with ties: a game's win is split equally among tied winners (1/k each), so a "
         "seat's win rate is its summed share over games and the seats' rates add up to 100%.",),
        (_interval_statement(a),),
        ("Counted rates (plays that won tokens, cancelled plays, villains beaten): "
         + ("Clopper-Pearson exact interval (--interval clopper-pearson); tied games and "
            "fractional win shares: Wilson." if a.method == "clopper-pearson" else
            "Wilson score interval (Clopper-Pearson with --interval clopper-pearson)."),),
        ("Seat test: Pearson chi-square of equal seat win shares (dof = n − 1); ties make it "
         "conservative. Seat gap: best minus worst seat, Wald interval with the multinomial "
         "covariance (the pair is chosen after looking, so it is biased away from 0).",),
        ("Detectable edge: the smallest edge of one seat over 1/n that a two-sided one-sample test "
         "at the 5% level finds with 90% power at this run's game count (normal approximation).",),
        ("Card strength: the win rate in games where a card won its player tokens, Wilson interval "
         "on the summed share (conservative with ties); two-sided two-proportion z-test against the "
         "other cards' pooled rate; Holm-adjusted p-values across the card values of each player "
         "count (family-wise error control).",),
        ("Strategies: win rate per seat-game pooled over seats, same interval as the seats; "
         "seat-games of one strategy in the same game are treated as independent (conservative, "
         "since they compete for one win).",),
        ("Scores: mean with a normal interval from the observed variance, seat-games treated as "
         "independent; quartiles read off the score histogram (the lower score where a quartile "
         "falls between two).",),
    ])])


# --------------------------------------------------------------------------------------------
# rendering: the same sections to Markdown and to HTML


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


# Characters that would start Markdown syntax inside plain text (| splits table cells).
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|])")


def _md_inline(part, in_table: bool = False) -> str:
    if isinstance(part, Code):
        text = part.replace("|", "\\|") if in_table else part  # GFM splits cells even inside code
        fence = "``" if "`" in text else "`"
        return f"{fence}{text}{fence}"
    text = _MD_SPECIAL.sub(r"\\\1", str(part))
    text = re.sub(r"<(?=[A-Za-z/!?])", r"\\<", text)  # would open an HTML tag
    return f"**{text}**" if isinstance(part, Strong) else text


def _md_parts(parts: tuple) -> str:
    return "".join(_md_inline(p) for p in parts)


def _md_table(table: Table) -> list[str]:
    def row(cells):
        return "| " + " | ".join(_md_inline(c, in_table=True) for c in cells) + " |"

    rule = ["---" if i < table.left else "---:" for i in range(len(table.header))]
    return [row(table.header), "| " + " | ".join(rule) + " |", *(row(r) for r in table.rows)]


def to_markdown(title: str, sections: list[Section], out_dir: Path) -> str:
    """The report as GitHub-flavoured Markdown; figures are linked relative to ``out_dir``."""
    lines = [f"# {_md_parts((title,))}", ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for block in section.blocks:
            if isinstance(block, Para):
                lines.append(_md_parts(block.parts))
            elif isinstance(block, Bullets):
                lines += [f"- {_md_parts(item)}" for item in block.items]
            elif isinstance(block, Table):
                lines += _md_table(block)
            else:
                link = block.path.relative_to(out_dir).as_posix()
                lines.append(f"![{_md_parts((block.caption,))}]({link})")
            lines.append("")
    return "\n".join(lines)


def _html_inline(part) -> str:
    text = html.escape(str(part))
    if isinstance(part, Code):
        return f"<code>{text}</code>"
    return f"<strong>{text}</strong>" if isinstance(part, Strong) else text


def _html_parts(parts: tuple) -> str:
    return "".join(_html_inline(p) for p in parts)


NUMERIC = ' class="num"'  # right-aligned, tabular figures


def _html_table(table: Table) -> str:
    def cells(tag, values):
        return "".join(f"<{tag}{'' if i < table.left else NUMERIC}>{_html_inline(v)}</{tag}>"
                       for i, v in enumerate(values))

    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in table.rows)
    return (f"<div class=\"scroll\"><table><thead><tr>{cells('th', table.header)}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>")


def _html_figure(figure: Figure) -> str:
    """The PNG embedded as a data: URI, so the HTML file is the whole report."""
    data = base64.b64encode(figure.path.read_bytes()).decode("ascii")
    caption = html.escape(figure.caption)
    return (f"<figure><img alt=\"{caption}\" src=\"data:image/png;base64,{data}\">"
            f"<figcaption>{caption}</figcaption></figure>")


_CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       max-width: 72rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .3rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.2rem; }
nav { font-size: .9rem; color: #555; }
nav a { color: #2b5d9b; text-decoration: none; margin-right: .8rem; }
ul { padding-left: 1.3rem; }
code { font-size: .9em; background: #f3f3f3; padding: 0 .2em; border-radius: 3px; }
.scroll { overflow-x: auto; margin: .6rem 0 1rem; }
table { border-collapse: collapse; font-size: .85rem; }
th, td { padding: .2rem .55rem; border-bottom: 1px solid #e4e4e4; text-align: left; white-space: nowrap; }
th { background: #f6f6f6; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; }
figcaption { font-size: .85rem; color: #555; }
"""


def to_html(title: str, sections: list[Section]) -> str:
    """The report as one self-contained HTML page (inline CSS, embedded figures, no links out)."""
    nav = " ".join(f"<a href=\"#{_anchor(s.title)}\">{html.escape(s.title)}</a>" for s in sections)
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
           f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>", f"<nav>{nav}</nav>"]
    for section in sections:
        out.append(f"<section><h2 id=\"{_anchor(section.title)}\">{html.escape(section.title)}</h2>")
        for block in section.blocks:
            if isinstance(block, Para):
                out.append(f"<p>{_html_parts(block.parts)}</p>")
            elif isinstance(block, Bullets):
                out.append("<ul>" + "".join(f"<li>{_html_parts(i)}</li>" for i in block.items) + "</ul>")
            elif isinstance(block, Table):
                out.append(_html_table(block))
            else:
                out.append(_html_figure(block))
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
