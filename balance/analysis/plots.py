"""Report figures: each function draws one small, already-aggregated polars frame into a PNG.

Inputs are the frames of ``balance.analysis.aggregate`` (a few rows per player count), never per-game
rows, so drawing costs the same for a thousand games as for a billion. Every function is
``name(frame, path) -> Path``: it writes ``path`` at ``DPI`` and closes its figure. Rates are
fractions in the frames and percentages (%) on the axes; differences of rates are fractions in
the frames and percentage points (pp) on the axes. Every rate is drawn with its 95% interval.
Panels of one player count each share their value axis wherever the values are comparable,
so the same height means the same value in every panel; heatmaps carry a labelled colour bar.
"""
from __future__ import annotations

import re
import warnings
from functools import lru_cache
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import seaborn as sns
from matplotlib import font_manager
from matplotlib.ft2font import FT2Font
from matplotlib.text import Text
from matplotlib.ticker import FuncFormatter, MaxNLocator

# Files only: no display, no GUI toolkit. pyplot resolves its backend at the first figure, so
# choosing it after the import still takes effect.
matplotlib.use("Agg")
sns.set_theme(style="whitegrid")

DPI = 150  # print quality (issue 9); every figure is written by _save at this resolution
PANEL_W, PANEL_H = 3.0, 2.6  # inches per facet: a 3-panel figure stays ~1000 px wide
MAX_COLS = 3  # more player counts wrap onto further rows
LONE_W = 6.0  # inches at least for a figure of one panel (ticks such as 15% 30% 45% ran together)
FAIR_STYLE = {"color": "0.3", "linestyle": "--", "linewidth": 1.0}


def grid(n: int, panel_h: float = PANEL_H, sharey: bool = False, sharex: bool = False,
          panel_w: float = PANEL_W):
    """A figure with ``n`` facets (wrapped at MAX_COLS); returns (fig, axes[:n]), spares hidden.

    sharex/sharey: one axis for every facet, so that equal lengths read as equal values.
    """
    cols = min(n, MAX_COLS)
    rows = -(-n // cols)
    if n == 1:  # one player count: its labels and ticks need the room three panels would share
        panel_w = max(panel_w, LONE_W)
    fig, axes = plt.subplots(rows, cols, figsize=(panel_w * cols, panel_h * rows),
                             sharex=sharex, sharey=sharey, squeeze=False)
    flat = axes.ravel()
    for ax in flat[n:]:
        ax.set_visible(False)
    if sharex:  # a hidden spare leaves the panel above it without x tick labels: give them back
        for ax in flat[max(n - cols, 0):n]:
            ax.xaxis.set_tick_params(labelbottom=True)
    return fig, flat[:n]


def save(fig, path) -> Path:
    path = Path(path)
    for text in fig.findobj(Text):  # titles, legends (tick labels: ``names`` where they are set)
        text.set_text(legible(text.get_text()))
    if fig.get_layout_engine() is None:  # heatmaps lay out with their colour bar (constrained)
        top = 1 - 0.35 / fig.get_figheight() if fig.get_suptitle() else 1  # keep the title off the panels
        with warnings.catch_warnings():  # long card names leave it no room to move;
            warnings.filterwarnings("ignore", "Tight layout not applied")  # "tight" below frames them
            fig.tight_layout(rect=(0, 0, 1, top))
    fig.savefig(path, dpi=DPI, bbox_inches="tight")  # "tight" keeps outside legends in frame
    plt.close(fig)
    return path


@lru_cache(maxsize=1)
def _drawable() -> frozenset[int]:
    """The code points the figures' font has glyphs for (DejaVu Sans: Latin, Greek, Cyrillic,
    symbols; no Japanese)."""
    return frozenset(FT2Font(font_manager.findfont(font_manager.FontProperties())).get_charmap())


def legible(label: str) -> str:
    """``label`` with each run of characters the font cannot draw shown as one '…' instead of
    empty boxes: a card known only by a name in a script the font lacks (Japanese, say) keeps
    the id its label carries, '… (colorless_09_02_02r_00)', by which the report's table (which
    shows the name) finds it."""
    drawable = _drawable()
    if all(ord(c) in drawable or c in "\n\t" for c in label):
        return label
    marked = "".join(c if ord(c) in drawable or c.isspace() else "\0" for c in label)
    return re.sub(r"\0+", "…", marked)


def names(labels) -> list[str]:
    """Tick labels from names in the data (cards, sides, variants), each ``legible``: matplotlib
    draws a tick label from its formatter at draw time, after ``save`` could mend its text."""
    return [legible(str(label)) for label in labels]


def wrap(label: str) -> str:
    """A long strategy spec on several lines (name, then one parameter a line) for tick labels."""
    label = legible(label)
    return label if len(label) <= 14 else label.replace(":", ":\n").replace(",", ",\n")


def legend_outside(ax, panels=()) -> None:
    """Legend to the right of ``ax`` (the last panel), where it can never hide a point; with
    ``panels``, it lists every label drawn in any of them once (the last panel may lack some)."""
    handles = {}
    for source in (*panels, ax):
        for handle, label in zip(*source.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    ax.legend(handles.values(), handles.keys(), loc="upper left", bbox_to_anchor=(1.02, 1.0),
              fontsize="small", frameon=False)


def scaled(suffix: str) -> FuncFormatter:
    """Tick labels of a fraction times 100 with ``suffix``: 0.125 -> '12.5' + suffix. Unlike
    PercentFormatter, whose decimals follow the view range ('2.00', '10.0%'), only the digits
    a tick needs."""
    def label(value, _pos) -> str:
        text = f"{100 * value:.6g}"  # 6 digits drop float noise (100 * 0.035 = 3.5000000000000004)
        return ("0" if text == "-0" else text).replace("-", "\N{MINUS SIGN}") + suffix
    return FuncFormatter(label)


def percent(ax, axis: str = "y") -> None:
    """Tick labels of a rate (a fraction) in %."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(scaled("%"))


def points(ax, axis: str = "y") -> None:
    """Tick labels of a difference of rates (a fraction) in percentage points; the axis label
    says "pp", so the ticks carry no symbol that could be read as %."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(scaled(""))


def interval(ax, x, rate, lo, hi, horizontal: bool = False, **style) -> None:
    """Points with asymmetric error bars (Wilson intervals are not centred on the rate)."""
    rate, lo, hi = (np.asarray(a, dtype=float) for a in (rate, lo, hi))
    err = np.vstack([rate - lo, hi - rate])
    style = {"fmt": "o", "capsize": 3, "markersize": 4, "linewidth": 1.2, **style}
    if horizontal:
        ax.errorbar(rate, x, xerr=err, **style)
    else:
        ax.errorbar(x, rate, yerr=err, **style)


def by_players(frame: pl.DataFrame):
    """(players, sub-frame) in ascending player count."""
    for players in sorted(frame["players"].unique().to_list()):
        yield players, frame.filter(pl.col("players") == players)


def label_rows(axes, label: str) -> None:
    """The y label on the first panel of each row of a _grid (the others share its axis)."""
    for ax in axes[::MAX_COLS]:
        ax.set_ylabel(label)


def seat_rates(frame: pl.DataFrame, path) -> Path:
    """Each seat's win rate minus the fair 1/n, in pp with its 95% interval, one panel per
    player count, all on one shared axis; 0 (fair) dashed.

    frame: ``aggregate.seat_rates`` (players, seat, rate, lo, hi, fair).
    """
    # The fair rate differs by player count (1/3, 1/4, 1/5). Raw rates on one shared axis would
    # span 20..35% and flatten seat differences of tenths of a pp into a line; raw rates on
    # separate axes would let one height mean different edges. The edge over fair, in pp on one
    # shared axis, keeps both: a seat's height is its advantage, whatever the player count.
    groups = list(by_players(frame))
    # a lone panel (a 2-player game) is wider (grid) and taller: its y label is long
    lone = len(groups) == 1
    fig, axes = grid(len(groups), sharey=True, panel_h=3.4 if lone else PANEL_H)
    for ax, (players, g) in zip(axes, groups):
        fair = g["fair"]
        interval(ax, g["seat"], g["rate"] - fair, g["lo"] - fair, g["hi"] - fair,
                  color=sns.color_palette()[0])
        ax.axhline(0.0, **FAIR_STYLE, label="fair 1/n")
        ax.set_title(f"{players} players (fair {100 * fair[0]:.1f}%)")  # 1/n of the games that handed out a win
        ax.set_xlabel("seat")
        ax.set_xticks(g["seat"].to_list())
        ax.set_xlim(-0.5, players - 0.5)
        points(ax)
    label_rows(axes, "win rate − fair 1/n (pp, 95% CI)")
    legend_outside(axes[-1])
    return save(fig, path)


def strategy_seat_heatmap(frame: pl.DataFrame, path) -> Path:
    """Strategy x seat win rate, one heatmap per player count: cells give the rate in %,
    colours its edge over the panel's fair 1/n in pp (red above, blue below) on one scale for
    every panel, read on the colour bar; a strategy that never sat in a seat leaves a blank cell.

    frame: ``aggregate.strategy_seat`` (players, strategy, seat, rate, fair).
    """
    groups = list(by_players(frame))
    strategies = sorted(frame["strategy"].unique().to_list())
    # One colour scale for all panels, measured from each panel's own fair rate: 1/n differs by
    # player count, so one colour means one edge in pp everywhere and a single bar reads it.
    # Limits symmetric about 0 put the diverging map's neutral colour at the fair rate.
    edge = 100 * (frame["rate"] - frame["fair"]).to_numpy()
    spread = max(float(np.nanmax(np.abs(edge))), 0.1)
    # Stacked, not side by side: strategy labels are long and each seat needs a readable cell.
    most_seats = max(players for players, _ in groups)
    labels_shown = [wrap(s) for s in strategies]
    # a row as tall as its label: a tuned greedy wraps to five lines, which ran into the next row
    row = max(0.4, 0.15 * max(label.count("\n") + 1 for label in labels_shown))
    fig, axes = plt.subplots(len(groups), 1, squeeze=False, layout="constrained",
                             figsize=(0.8 * most_seats + 3.6, (row * len(strategies) + 0.8) * len(groups)))
    for ax, (players, g) in zip(axes[:, 0], groups):
        rates = np.full((len(strategies), players), np.nan)
        for strategy, seat, rate in g.select("strategy", "seat", "rate").iter_rows():
            rates[strategies.index(strategy), seat] = rate
        labels = np.where(np.isnan(rates), "", np.char.mod("%.1f%%", 100 * np.nan_to_num(rates)))
        fair = g["fair"][0]
        sns.heatmap(100 * (rates - fair), ax=ax, annot=labels, fmt="", cmap="vlag", vmin=-spread,
                    vmax=spread, cbar=False, linewidths=0.5, annot_kws={"fontsize": "small"},
                    xticklabels=list(range(players)), yticklabels=labels_shown)
        ax.set_title(f"{players} players (fair {100 * fair:.1f}%)")
        ax.set_xlabel("seat")
        ax.tick_params(axis="y", rotation=0)
        ax.grid(False)  # the theme's grid would show through blank cells
    fig.colorbar(axes[0, 0].collections[0], ax=axes[:, 0].tolist(), label="win rate − fair 1/n (pp)")
    return save(fig, path)


def score_distributions(scores_frame: pl.DataFrame, path) -> Path:
    """Final-score distribution per player count, one line per strategy (shares of seat-games),
    every panel on the same score and share axes.

    scores_frame: the run's ``scores`` histogram (players, seat, strategy, score, count); counts
    are pooled over seats and normalised to shares per (players, strategy), so strategies that
    fill different numbers of seats stay comparable.
    """
    shares = (scores_frame.group_by("players", "strategy", "score").agg(pl.col("count").sum())
              .with_columns(share=pl.col("count") / pl.col("count").sum().over("players", "strategy"))
              .sort("players", "strategy", "score"))
    strategies = sorted(shares["strategy"].unique().to_list())
    colours = dict(zip(strategies, sns.color_palette(n_colors=len(strategies))))
    groups = list(by_players(shares))
    # Shared axes: fewer tokens per player at higher counts shift the curve left, and a reader
    # sees it only if the same score sits at the same place in every panel.
    fig, axes = grid(len(groups), sharex=True, sharey=True)
    for ax, (players, g) in zip(axes, groups):
        for strategy in strategies:
            s = g.filter(pl.col("strategy") == strategy)
            if s.height:
                ax.plot(s["score"], s["share"], drawstyle="steps-mid", color=colours[strategy],
                        linewidth=1.2, label=strategy)
        ax.set_title(f"{players} players")
        ax.set_xlabel("final score")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
        percent(ax)
    label_rows(axes, "share of seat-games")
    if len(strategies) > 1:
        legend_outside(axes[-1], axes)
    return save(fig, path)


def named_rates(frame: pl.DataFrame, path, reference: str = "average seat", title=None,
                xlabel: str = "win rate (95% CI)") -> Path:
    """Win rate per name with its interval, one panel per player count, highest at the top, on
    one shared axis (so a length means the same in every panel), and the rate each is tested
    against (``expected``) dashed and named in the legend (``reference``). frame: (players,
    name, rate, lo, hi, expected), e.g. ``balance.analysis.sides.tested``. title: players ->
    panel title (default "N players")."""
    title = title or (lambda players: f"{players} players")
    groups = list(by_players(frame))
    fig, axes = grid(len(groups), panel_h=max(PANEL_H, 0.22 * frame["name"].n_unique() + 1), sharex=True,
                     panel_w=PANEL_W + 0.6)
    for ax, (players, g) in zip(axes, groups):
        g = g.sort("rate")
        y = np.arange(g.height)
        interval(ax, y, g["rate"].to_numpy(), g["lo"].to_numpy(), g["hi"].to_numpy(), horizontal=True)
        ax.axvline(float(g["expected"][0]), **FAIR_STYLE, label=reference)
        ax.set_yticks(y, names(g["name"]))
        ax.set_title(title(players))
        ax.set_xlabel(xlabel)  # short: a long one ran into the next panel's
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))  # '25%50%75%' ran together on a narrow panel
        percent(ax, "x")
    legend_outside(axes[-1])
    return save(fig, path)


# a matchups figure's caption ends with what the second line of each cell is
CELL_INTERVAL = "; under each rate, ± the larger half of its interval (pp)"


def matchups(frame: pl.DataFrame, path, centre: float = 0.5, title: str = "row beats column",
             order: list[str] | None = None) -> Path:
    """Strategy x strategy heatmap per player count, values in %, colours diverging around
    ``centre`` on one scale for every panel, read on a colour bar labelled with ``title``.

    frame: (players, strategy, opponent_strategy, rate), and optionally the rate's interval
    (lo, hi), which each cell then gives under its rate as ±(the larger half-width, pp), so a
    cell of few games does not read as sure as one of many; e.g. ``aggregate.matchups`` (how
    often the row outscored the column in the same game, level = half, centre 50%) or a
    1-vs-field matrix (centre: the fair 1/n). order: the strategies' order on both axes (a
    matchup study's pool, as its table lists them); default alphabetical.
    """
    groups = list(by_players(frame))
    strategies = order or sorted(set(frame["strategy"].to_list()) | set(frame["opponent_strategy"].to_list()))
    # Every panel has the same centre, so one scale (and one colour bar) serves them all.
    spread = max(float(np.nanmax(np.abs(frame["rate"].to_numpy() - centre))), 1e-3)
    size = 0.9 * len(strategies) + 2.2
    fig, axes = plt.subplots(1, len(groups), squeeze=False, layout="constrained",
                             figsize=(size * len(groups) + 1.2, size * 0.8))
    for ax, (players, g) in zip(axes[0], groups):
        cells = np.full((len(strategies), len(strategies)), np.nan)
        labels = np.full(cells.shape, "", dtype=object)
        with_interval = "lo" in g.columns and "hi" in g.columns
        for r in g.iter_rows(named=True):
            if r["rate"] is None:  # no game between the two: an empty cell
                continue
            i, j = strategies.index(r["strategy"]), strategies.index(r["opponent_strategy"])
            cells[i, j] = r["rate"]
            if with_interval and r["lo"] is not None and r["hi"] is not None:
                half = 100 * max(r["hi"] - r["rate"], r["rate"] - r["lo"])
                labels[i, j] = f"{100 * r['rate']:.1f}%\n±{half:.{1 if half >= 0.095 else 2}f}"  # not ±0.0
            else:
                labels[i, j] = f"{100 * r['rate']:.1f}%"
        sns.heatmap(cells, ax=ax, annot=labels, fmt="", cmap="vlag", vmin=centre - spread,
                    vmax=centre + spread, cbar=False, linewidths=0.5, annot_kws={"fontsize": "small"},
                    xticklabels=[wrap(s) for s in strategies], yticklabels=[wrap(s) for s in strategies])
        ax.set_title(f"{players} players")
        ax.tick_params(axis="x", rotation=0, labelsize="small")
        ax.tick_params(axis="y", rotation=0)
        ax.grid(False)
    bar = fig.colorbar(axes[0, 0].collections[0], ax=axes[0].tolist(), label=f"{title} (%)")
    # The colours stay symmetric about the centre (a gap of d pp is as deep either way), but a
    # share lies in [0, 1]: the bar shows only the part of the scale a cell can take.
    bar.ax.set_ylim(max(0.0, centre - spread), min(1.0, centre + spread))
    percent(bar.ax)
    return save(fig, path)


def differences(frame: pl.DataFrame, path, level: str = "95%") -> Path:
    """Forest plot of variant - baseline differences with their ``level`` intervals (the
    comparison's confidence), one panel per metric, zero dashed; red: significant after correction.

    frame: rows of comparison results (variant, metric, difference, lo, hi, significant) and
    optionally ``is_rate`` (bool): True where the metric is a rate (a win share, a success
    rate: differences are fractions), drawn in pp on one axis shared by every rate panel so
    that one pp has one length; other metrics (a mean score) keep their own unit and axis.
    Without ``is_rate`` every metric is drawn in its own unit on its own axis.
    """
    # a metric no variant moved in any game (every difference and interval 0: e.g. the capped
    # share of a game that never hits its cap) would be an empty panel; when no metric moved
    # (variants that play identical games) every panel stays, each saying so by its zeros
    moved = frame.group_by("metric").agg(
        ((pl.col("difference") != 0) | (pl.col("lo") != 0) | (pl.col("hi") != 0)).any().alias("moved"))
    if moved["moved"].any():
        frame = frame.filter(pl.col("metric").is_in(moved.filter(pl.col("moved"))["metric"].to_list()))
    metrics = frame["metric"].unique(maintain_order=True).to_list()
    variants = frame["variant"].unique(maintain_order=True).to_list()
    rate_metrics = (set(frame.filter(pl.col("is_rate"))["metric"].to_list())
                    if "is_rate" in frame.columns else set())
    fig, axes = grid(len(metrics), panel_h=0.45 * len(variants) + 1.2)
    rate_axes = [ax for ax, metric in zip(axes, metrics) if metric in rate_metrics]
    for ax in rate_axes[1:]:
        ax.sharex(rate_axes[0])
    palette = sns.color_palette()
    for ax, metric in zip(axes, metrics):
        g = frame.filter(pl.col("metric") == metric)
        # every panel has a row per variant, in the report's order from the top, so a variant
        # sits at one height in all of them (a metric some variant lacks leaves its row empty)
        y = np.array([variants.index(v) for v in g["variant"]])
        colours = [palette[3] if s else palette[0] for s in g["significant"].to_list()]
        for i, (d, lo, hi, c) in enumerate(zip(g["difference"], g["lo"], g["hi"], colours)):
            interval(ax, [y[i]], [d], [lo], [hi], horizontal=True, color=c)
        ax.axvline(0.0, **FAIR_STYLE)
        ax.set_yticks(range(len(variants)), names(variants))
        ax.set_ylim(len(variants) - 0.3, -0.7)  # inverted: the first variant on top
        ax.set_title(metric, fontsize="medium")
        if metric in rate_metrics:
            points(ax, "x")
            ax.set_xlabel("pp")
        else:
            ax.set_xlabel("difference (the metric's unit)")
    # the intervals are each metric's own: one clear of 0 may still fail the corrected test (blue)
    fig.suptitle(f"variant - baseline (unadjusted {level} CI; red: significant after correction,\n"
                 "which an interval clear of 0 may not be)", fontsize="medium")
    return save(fig, path)


def sprt_trajectories(frame: pl.DataFrame, path, lower: float, upper: float) -> Path:
    """Log-likelihood ratio against games played, one line per variant, with the H0 (lower)
    and H1 (upper) decision bounds.

    frame: (variant, games, llr) rows of each sequential test's history.
    """
    fig, ax = plt.subplots(figsize=(6.0, 3.2))
    for variant in frame["variant"].unique(maintain_order=True).to_list():
        g = frame.filter(pl.col("variant") == variant)
        ax.plot(g["games"], g["llr"], marker=".", label=variant)
    ax.axhline(upper, color="tab:red", linestyle="--", linewidth=1, label="accept H1")
    ax.axhline(lower, color="tab:green", linestyle="--", linewidth=1, label="accept H0")
    ax.set_xlabel("games per variant")
    ax.set_ylabel("log-likelihood ratio")
    legend_outside(ax)
    return save(fig, path)


def _rows_by_players(frame: pl.DataFrame, path, rows: list[str], value: str, lo: str, hi: str,
                     xlabel: str, reference, ticks=percent) -> Path:
    """Intervals of ``value`` on their side, one row per strategy (``rows`` order, top down),
    one colour per player count on one axis (so every count shares it); ``reference(players)``
    draws each count's dashed line; ``ticks``: percent for rates, points for differences."""
    fig, ax = plt.subplots(figsize=(6.0, 0.75 * len(rows) + 1.2))
    palette = sns.color_palette()
    groups = list(by_players(frame))
    shared = len({reference(players) for players, _ in groups}) == 1  # e.g. a gap's 0
    for i, (players, g) in enumerate(groups):
        colour = palette[i % len(palette)]
        y = np.array([rows.index(s) for s in g["strategy"]]) + (i - (len(groups) - 1) / 2) * 0.15
        interval(ax, y, g[value], g[lo], g[hi], horizontal=True, color=colour,
                  label=f"{players} players")
        if not shared:  # each count's own line, in its colour
            ax.axvline(reference(players), color=colour, linestyle="--", linewidth=1.0)
    if shared and groups:  # once, in grey: in the last count's colour it read as that count's
        ax.axvline(reference(groups[0][0]), **FAIR_STYLE)
    ax.set_yticks(range(len(rows)), [wrap(s) for s in rows], fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ticks(ax, "x")
    legend_outside(ax)
    return save(fig, path)


def ladder_gaps(frame: pl.DataFrame, path, order: list[str]) -> Path:
    """Largest seat gap (best minus worst seat, in pp) with its interval per strategy of a
    skill ladder (weakest on top), one colour per player count; zero dashed.

    frame: ``ladder.LadderResult.rungs`` (strategy, players, gap, gap_lo, gap_hi).
    """
    return _rows_by_players(frame, path, order, "gap", "gap_lo", "gap_hi",
                            "largest seat gap, best − worst seat (pp, 95% CI)", lambda players: 0.0,
                            ticks=points)


def skill_vs_luck(frame: pl.DataFrame, path, order: list[str]) -> Path:
    """Win share of one player of each strategy among players of the weakest, one colour per
    player count, with each count's pure luck dashed (1/n of the games that handed out a win:
    the frame's ``fair``, averaged over the count's rows, which differ only by capped games).

    frame: ``ladder.LadderResult.skill`` (strategy, players, share, lo, hi, fair).
    """
    rungs = [s for s in order if s in set(frame["strategy"])]
    return _rows_by_players(frame, path, rungs, "share", "lo", "hi",
                            "win share vs the weakest (95% CI); dashed: luck 1/n",
                            lambda players: float(frame.filter(pl.col("players") == players)["fair"].mean()))


CARDS_DRAWN = 24  # a card-strength figure shows this many largest changes per player count


def largest_changes(frame: pl.DataFrame, most: int = CARDS_DRAWN) -> pl.DataFrame:
    """The ``most`` rows of largest |difference| (per player count, with a ``players`` column):
    a list of hundreds of cards would be a figure thousands of pixels tall; the report's
    table lists every card."""
    ranked = frame.with_columns(size=pl.col("difference").abs()).sort("size", descending=True)
    if "players" not in frame.columns:
        return ranked.head(most)
    return ranked.group_by("players", maintain_order=True).head(most).sort("players")


def card_restriction(frame: pl.DataFrame, path,
                     xlabel: str = "win-share change of the\nrestricted seat (pp, 95% CI)") -> Path:
    """Win-share change of a seat denied each card (restricted play), in pp with its 95%
    interval, most harmful first; zero dashed. A card whose interval excludes 0 is drawn
    filled, one whose interval includes 0 hollow.

    frame: ``restrict.RestrictResult.table`` (card, difference, lo, hi; fractions, -0.0728 is
    -7.28 pp), or its ``largest_changes``. With a ``players`` column: one panel per player
    count, all on one shared axis (a win-share change is the same kind of number at every
    count); without: one panel.
    """
    groups = list(by_players(frame)) if "players" in frame.columns else [(None, frame)]
    most_cards = max(g.height for _, g in groups)
    fig, axes = grid(len(groups), panel_h=0.35 * most_cards + 1.3, sharex=True,
                      panel_w=6.5 if len(groups) == 1 else 3.8)  # the legend takes ~2 inches
    colour = sns.color_palette()[3]
    for ax, (players, g) in zip(axes, groups):
        g = g.sort("difference")
        y = np.arange(g.height)
        clear = ((g["lo"] > 0) | (g["hi"] < 0)).fill_null(False).to_numpy()  # no interval (untested): unclear
        columns = [g[c].to_numpy() for c in ("difference", "lo", "hi")]
        for mask, face, label in ((clear, colour, "interval excludes 0"),
                                  (~clear, "white", "interval includes 0")):
            if mask.any():
                interval(ax, y[mask], *(c[mask] for c in columns), horizontal=True, color=colour,
                          markerfacecolor=face, markersize=5, label=label)
        ax.axvline(0.0, **FAIR_STYLE)
        ax.set_yticks(y, names(f"card {c}" if isinstance(c, int) else c for c in g["card"]))
        ax.set_ylim(g.height - 0.5, -0.5)  # most harmful on top
        if players is not None:
            ax.set_title(f"{players} players")
        ax.set_xlabel(xlabel)  # the game's restricted play: a card removed, or swapped for a stand-in
        points(ax, "x")
    legend_outside(axes[-1], axes)
    return save(fig, path)
