"""Report figures from small synthetic frames: every PNG at print resolution, comparable panels
on shared axes, colour bars on heatmaps, differences in pp, restricted play with and without
player counts, and how cards are used."""
import struct

import numpy as np
import polars as pl
import pytest
from matplotlib.colors import to_rgba

from balance.analysis import plots
from balance.games.avengers_cards import report as avengers_report

PLAYERS = (3, 4, 5)


# ---- synthetic frames (the columns each function documents) ---------------------------------


def seat_frame() -> pl.DataFrame:
    rows = []
    for n in PLAYERS:
        for seat in range(n):
            rate = 1 / n + 0.004 * (seat - 1) * (6 - n)  # a few tenths of a pp off fair
            rows.append({"players": n, "seat": seat, "rate": rate, "lo": rate - 0.003,
                         "hi": rate + 0.003, "fair": 1 / n})
    return pl.DataFrame(rows)


def strategy_seat_frame() -> pl.DataFrame:
    rows = []
    for n in (3, 4):
        for k, strategy in enumerate(("greedy", "random")):
            for seat in range(n):
                rows.append({"players": n, "strategy": strategy, "seat": seat,
                             "rate": 1 / n + (0.05 if k == 0 else -0.04) * (n - 2), "fair": 1 / n})
    return pl.DataFrame(rows)


def matchup_frame() -> pl.DataFrame:
    pool = ("greedy", "random", "threshold")
    return pl.DataFrame([{"players": n, "strategy": a, "opponent_strategy": b,
                          "rate": 0.5 + 0.1 * (i - j) * (n - 2)}
                         for n in (3, 4) for i, a in enumerate(pool) for j, b in enumerate(pool) if a != b])


def scores_frame() -> pl.DataFrame:
    return pl.DataFrame([{"players": n, "seat": seat, "strategy": "greedy" if seat % 2 else "random",
                          "score": score, "count": 10 + (score * (seat + 1)) % 7}
                         for n in PLAYERS for seat in range(n) for score in range(2, 30 - 3 * n)])


def cards_frame() -> pl.DataFrame:
    rows = []
    for n in PLAYERS:
        hand = range(2, 8) if n == 3 else range(1, 7)
        for card in hand:
            reward, cancel = 0.2 + 0.08 * card, 0.02 * card * (n - 2)
            rows.append({"players": n, "card": card,
                         "reward_rate": reward, "reward_rate_lo": reward - 0.02, "reward_rate_hi": reward + 0.02,
                         "cancel_rate": cancel, "cancel_rate_lo": cancel * 0.8, "cancel_rate_hi": cancel * 1.2,
                         "win_rate_rewarded": 1 / n + 0.01, "win_rate_rewarded_lo": 1 / n,
                         "win_rate_rewarded_hi": 1 / n + 0.02})
    return pl.DataFrame(rows)


def villain_frame() -> pl.DataFrame:
    rows = []
    for n in PLAYERS:
        for battle in (1, 2, 3):
            for strength in range(4 + battle, 9 + battle):
                rate = min(0.95, 1.6 - 0.09 * strength - 0.05 * (5 - n))
                rows.append({"players": n, "villain": f"b{battle}-s{strength}", "battle": battle,
                             "strength": strength, "success_rate": rate, "success_rate_lo": rate - 0.03,
                             "success_rate_hi": rate + 0.03})
    return pl.DataFrame(rows)


def differences_frame(with_rate: bool = True) -> pl.DataFrame:
    rows = []
    for metric, scale in (("win_share_seat0", 0.01), ("heroes_success", 0.05), ("mean_score", 1.5)):
        for k, variant in enumerate(("bonus2", "loss_one")):
            d = scale * (k - 0.3)
            rows.append({"variant": variant, "metric": metric, "difference": d, "lo": d - scale / 3,
                         "hi": d + scale / 3, "significant": k == 1, "is_rate": metric != "mean_score"})
    frame = pl.DataFrame(rows)
    return frame if with_rate else frame.drop("is_rate")


def sprt_frame() -> pl.DataFrame:
    return pl.DataFrame({"variant": ["a"] * 4 + ["b"] * 4, "games": [1000, 2000, 3000, 4000] * 2,
                         "llr": [0.1, 0.5, 1.2, 3.1, -0.2, -0.8, -1.5, -3.0]})


def rungs_frame() -> pl.DataFrame:
    return pl.DataFrame([{"strategy": s, "players": n, "gap": 0.01 * (i + 1), "gap_lo": 0.005 * (i + 1),
                          "gap_hi": 0.015 * (i + 1)} for i, s in enumerate(("random", "greedy")) for n in (3, 4)])


def skill_frame() -> pl.DataFrame:
    return pl.DataFrame([{"strategy": s, "players": n, "share": 1 / n + 0.05 * i, "lo": 1 / n + 0.05 * i - 0.01,
                          "hi": 1 / n + 0.05 * i + 0.01, "fair": 1 / n}
                         for i, s in enumerate(("random", "greedy")) for n in (3, 4)])


def restriction_frame(players=None) -> pl.DataFrame:
    """Restricted play, most harmful first: cards 6 and 5 hurt clearly, card 1 not clearly."""
    rows = []
    for n in players or (None,):
        for card, d, half in ((6, -0.0728, 0.01), (5, -0.03, 0.01), (1, -0.002, 0.004), (3, 0.011, 0.005)):
            d *= 1 if n is None else n / 4
            rows.append({**({"players": n} if n else {}), "card": card, "difference": d,
                         "lo": d - half, "hi": d + half})
    return pl.DataFrame(rows).sort("difference")


FIGURES = {
    "seat_rates": lambda p: plots.seat_rates(seat_frame(), p),
    "strategy_seat": lambda p: plots.strategy_seat_heatmap(strategy_seat_frame(), p),
    "scores": lambda p: plots.score_distributions(scores_frame(), p),
    "card_usage": lambda p: avengers_report.card_usage_figure(cards_frame(), p),
    "villains": lambda p: avengers_report.villains_figure(villain_frame(), p),
    "matchups": lambda p: plots.matchups(matchup_frame(), p),
    "differences": lambda p: plots.differences(differences_frame(), p),
    "sprt": lambda p: plots.sprt_trajectories(sprt_frame(), p, -2.9, 2.9),
    "ladder_gaps": lambda p: plots.ladder_gaps(rungs_frame(), p, ["random", "greedy"]),
    "skill_vs_luck": lambda p: plots.skill_vs_luck(skill_frame(), p, ["random", "greedy"]),
    "restriction": lambda p: plots.card_restriction(restriction_frame(), p),
    "restriction_by_players": lambda p: plots.card_restriction(restriction_frame(PLAYERS), p),
}


# ---- helpers ---------------------------------------------------------------------------------


def png_chunks(path) -> dict[bytes, bytes]:
    """The chunks of a PNG file, type -> data (the first of each type)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    chunks, at = {}, 8
    while at < len(data):
        (length,), kind = struct.unpack(">I", data[at:at + 4]), data[at + 4:at + 8]
        chunks.setdefault(kind, data[at + 8:at + 8 + length])
        at += 12 + length  # length, type, data, CRC
    return chunks


def png_dpi(path) -> tuple[float, float]:
    """Resolution the PNG declares (its pHYs chunk, pixels per metre), in dots per inch."""
    x, y, unit = struct.unpack(">IIB", png_chunks(path)[b"pHYs"])
    assert unit == 1, "pHYs unit is not the metre"
    return x * 0.0254, y * 0.0254


@pytest.fixture
def drawn(monkeypatch):
    """Figures as _save received them (still open), keyed by the file name written."""
    figures = {}
    save = plots.save

    def keep(fig, path):
        figures[path.name] = fig
        written = save(fig, path)
        fig.canvas.draw()  # the figure as it was saved: limits and layout final (closed, still drawable)
        return written

    monkeypatch.setattr(plots, "save", keep)
    return figures


def panels(fig):
    """The visible data axes of a figure (no colour bars, no hidden spares)."""
    return [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]


def tick(axis, value) -> str:
    """The tick label ``axis`` would write for ``value`` (its decimals follow the view range)."""
    return axis.get_major_formatter()(value, 0)


def pp_tick(axis, value) -> float:
    """The number a pp tick label shows for ``value``; it must carry no % sign."""
    text = tick(axis, value)
    assert "%" not in text, text
    return float(text.replace("\u2212", "-"))


def colour_bars(fig):
    return [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]


def assert_shared(axes, axis: str) -> None:
    first = axes[0]
    shared = first.get_shared_y_axes() if axis == "y" else first.get_shared_x_axes()
    for ax in axes[1:]:
        assert shared.joined(first, ax), f"{ax.get_title()!r} does not share the {axis} axis"
        limits = ax.get_ylim() if axis == "y" else ax.get_xlim()
        assert limits == (first.get_ylim() if axis == "y" else first.get_xlim())


# ---- every figure ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", FIGURES)
def test_every_figure_is_a_png_at_print_resolution(tmp_path, name):
    path = FIGURES[name](tmp_path / f"{name}.png")
    assert path == tmp_path / f"{name}.png" and path.stat().st_size > 5000
    dpi_x, dpi_y = png_dpi(path)
    assert round(dpi_x) >= 150 and round(dpi_y) >= 150, (dpi_x, dpi_y)
    assert round(dpi_x) == plots.DPI
    width, height = struct.unpack(">II", png_chunks(path)[b"IHDR"][:8])
    assert width >= 600 and height >= 300  # a figure of a few inches at 150 dpi, not a thumbnail
    assert not plots.plt.get_fignums()  # the figure was closed


# ---- shared axes and pp ----------------------------------------------------------------------


def test_seat_panels_share_one_pp_axis_of_edges_over_fair(tmp_path, drawn):
    frame = seat_frame()
    plots.seat_rates(frame, tmp_path / "s.png")
    axes = panels(drawn["s.png"])
    assert [ax.get_title() for ax in axes] == ["3 players (fair 33.3%)", "4 players (fair 25.0%)",
                                               "5 players (fair 20.0%)"]
    assert_shared(axes, "y")
    for ax, n in zip(axes, PLAYERS):
        g = frame.filter(pl.col("players") == n)
        # the points are each seat's rate minus 1/n (a fraction) ...
        assert np.allclose(ax.lines[0].get_ydata(), g["rate"] - 1 / n)
    # ... labelled in pp: 0.005 reads "0.5", not "0.5%" and not "0.005"
    assert pp_tick(axes[0].yaxis, 0.005) == 0.5
    assert "pp" in axes[0].get_ylabel()
    bottom, top = axes[0].get_ylim()
    assert -0.03 < bottom < 0 < top < 0.03  # the axis spans the edges, not 20..35%


def test_scores_and_villains_share_their_value_axes(tmp_path, drawn):
    plots.score_distributions(scores_frame(), tmp_path / "scores.png")
    axes = panels(drawn["scores.png"])
    assert len(axes) == 3
    assert_shared(axes, "x")
    assert_shared(axes, "y")
    avengers_report.villains_figure(villain_frame(), tmp_path / "villains.png")
    axes = panels(drawn["villains.png"])
    assert len(axes) == 3
    assert_shared(axes, "x")
    assert float(tick(axes[0].xaxis, 0.5).rstrip("%")) == 50


def test_card_usage_shows_how_cards_are_used_on_shared_axes(tmp_path, drawn):
    frame = cards_frame()
    avengers_report.card_usage_figure(frame, tmp_path / "usage.png")
    fig = drawn["usage.png"]
    assert "how cards are used" in fig._suptitle.get_text().lower()
    axes = np.array(panels(fig)).reshape(2, len(PLAYERS))
    assert [ax.get_title() for ax in axes[0]] == [f"{n} players" for n in PLAYERS]
    assert "won tokens" in axes[0, 0].get_ylabel() and "cancelled" in axes[1, 0].get_ylabel()
    for row in axes:
        assert_shared(list(row), "y")
    assert_shared(list(axes.ravel()), "x")  # card 4 sits at one place in every panel
    # top row: reward rates, bottom row: cancel rates, per player count
    for col, n in enumerate(PLAYERS):
        g = frame.filter(pl.col("players") == n)
        assert np.allclose(axes[0, col].lines[0].get_ydata(), g["reward_rate"])
        assert np.allclose(axes[1, col].lines[0].get_ydata(), g["cancel_rate"])
    # nothing on it reads as a win rate
    text = " ".join(ax.get_ylabel() + ax.get_title() for ax in axes.ravel()).lower()
    assert "win" not in text and "fair" not in text


def test_card_usage_needs_only_its_documented_columns(tmp_path):
    frame = cards_frame().select("players", "card", "reward_rate", "reward_rate_lo", "reward_rate_hi",
                                 "cancel_rate", "cancel_rate_lo", "cancel_rate_hi")
    assert avengers_report.card_usage_figure(frame, tmp_path / "u.png").is_file()


def test_rate_differences_share_one_pp_axis_and_scores_keep_theirs(tmp_path, drawn):
    plots.differences(differences_frame(), tmp_path / "d.png")
    win, heroes, score = panels(drawn["d.png"])
    assert_shared([win, heroes], "x")
    assert not win.get_shared_x_axes().joined(win, score)
    unit = "difference (the metric's unit)"
    assert win.get_xlabel() == heroes.get_xlabel() == "pp" and score.get_xlabel() == unit
    assert pp_tick(win.xaxis, 0.01) == 1
    # without the is_rate column: every metric on its own axis, as the caller gave it
    plots.differences(differences_frame(with_rate=False), tmp_path / "raw.png")
    win, heroes, _ = panels(drawn["raw.png"])
    assert not win.get_shared_x_axes().joined(win, heroes) and win.get_xlabel() == unit


def test_differences_keep_each_variant_at_one_height_and_drop_a_metric_nothing_moved(tmp_path, drawn):
    """A metric no variant moved (the capped share of a game that never hits its cap) was an
    empty panel; a metric one variant lacks (a fairness row left out) drew its rows one place
    off the other panels'; and the variants ran bottom-up, against the report's order."""
    frame = differences_frame()
    capped = pl.DataFrame([{"variant": v, "metric": "capped", "difference": 0.0, "lo": 0.0, "hi": 0.0,
                            "significant": False, "is_rate": True} for v in ("bonus2", "loss_one")])
    fewer = frame.filter((pl.col("metric") == "heroes_success") & (pl.col("variant") == "loss_one"))
    frame = pl.concat([frame.filter(pl.col("metric") != "heroes_success"), fewer, capped])
    plots.differences(frame, tmp_path / "d.png")
    shown = panels(drawn["d.png"])
    assert [ax.get_title() for ax in shown] == ["win_share_seat0", "mean_score", "heroes_success"]
    for ax in shown:
        assert [t.get_text() for t in ax.get_yticklabels()] == ["bonus2", "loss_one"]
        assert ax.get_ylim()[0] > ax.get_ylim()[1]  # inverted: the first variant on top
    heroes = shown[2]
    assert heroes.lines[0].get_ydata()[0] == 1  # loss_one at its own height, not at bonus2's
    # variants whose games are all identical: every panel stays (none would be a crash)
    plots.differences(capped, tmp_path / "same.png")
    assert [ax.get_title() for ax in panels(drawn["same.png"])] == ["capped"]


def test_a_figures_title_sits_above_its_panels_titles(tmp_path, drawn):
    """The comparison's title overlapped its first panels' titles (tight_layout leaves no room
    for a figure title): it must sit wholly above them."""
    many = pl.DataFrame([{"variant": f"v{k}", "metric": f"m{m}", "difference": 0.01 * k, "lo": 0.0,
                          "hi": 0.02 * k, "significant": True, "is_rate": True} for m in range(15) for k in range(7)])
    plots.differences(many, tmp_path / "d.png", level="90%")  # 5 rows of panels, as Defenders' levers
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = drawn["d.png"]
    canvas = FigureCanvasAgg(fig)  # the saved figure, closed: draw it again as saved
    canvas.draw()
    renderer = canvas.get_renderer()
    title = fig.get_suptitle()
    assert title.startswith("variant - baseline (unadjusted 90% CI")
    bottom = next(t for t in fig.texts if t.get_text() == title).get_window_extent(renderer).y0
    assert all(ax.title.get_window_extent(renderer).y1 <= bottom for ax in panels(fig))


def test_ladder_gap_is_in_pp_and_skill_share_in_percent(tmp_path, drawn):
    plots.ladder_gaps(rungs_frame(), tmp_path / "gaps.png", ["random", "greedy"])
    (ax,) = panels(drawn["gaps.png"])
    assert "pp" in ax.get_xlabel() and pp_tick(ax.xaxis, 0.02) == 2
    plots.skill_vs_luck(skill_frame(), tmp_path / "skill.png", ["random", "greedy"])
    (ax,) = panels(drawn["skill.png"])
    assert float(tick(ax.xaxis, 0.25).rstrip("%")) == 25


# ---- heatmaps --------------------------------------------------------------------------------


def test_strategy_seat_heatmap_has_one_labelled_colour_bar_for_every_panel(tmp_path, drawn):
    plots.strategy_seat_heatmap(strategy_seat_frame(), tmp_path / "h.png")
    fig = drawn["h.png"]
    maps, (bar,) = panels(fig), colour_bars(fig)
    assert len(maps) == 2
    assert "pp" in bar.get_ylabel() and "fair" in bar.get_ylabel()
    # one scale: the same colour means the same edge over fair in both panels
    limits = {ax.collections[0].get_clim() for ax in maps}
    assert len(limits) == 1
    low, high = limits.pop()
    assert low == -high and high == pytest.approx(100 * 0.05 * 2)  # the largest edge, 4 players
    # cells read as rates: the 4-player greedy cell is 25% + 10 pp
    assert "35.0%" in [t.get_text() for t in maps[1].texts]


def test_matchups_heatmap_has_a_colour_bar_in_percent(tmp_path, drawn):
    plots.matchups(matchup_frame(), tmp_path / "m.png", title="row beats column")
    fig = drawn["m.png"]
    maps, (bar,) = panels(fig), colour_bars(fig)
    assert len(maps) == 2 and bar.get_ylabel() == "row beats column (%)"
    assert float(tick(bar.yaxis, 0.5).rstrip("%")) == 50
    assert len({ax.collections[0].get_clim() for ax in maps}) == 1


def test_matchups_follow_the_order_given(tmp_path, drawn):
    """A matchup study's heatmap lists its pool in the table's order (it sorted them by name)."""
    plots.matchups(matchup_frame(), tmp_path / "m.png", order=["threshold", "greedy", "random"])
    ax = panels(drawn["m.png"])[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["threshold", "greedy", "random"]


def test_matchups_colour_bar_stays_within_possible_shares(tmp_path, drawn):
    """Around a fair 25% a cell at 90% makes the symmetric colour scale run from -40%: the
    colours stay symmetric (65 pp either way), but the bar shows only shares a cell can take."""
    plots.matchups(matchup_frame(), tmp_path / "m.png", centre=0.25)
    fig = drawn["m.png"]
    (bar,) = colour_bars(fig)
    assert [ax.collections[0].get_clim() for ax in panels(fig)] == [pytest.approx((-0.4, 0.9))] * 2
    assert bar.get_ylim() == (0.0, pytest.approx(0.9))


def test_matchups_cells_give_their_interval_under_the_rate(tmp_path, drawn):
    """A cell of few games read as sure as one of many: with lo and hi, each cell gives its
    rate and, under it, the larger half of its interval in pp (asymmetric Wilson intervals
    near 0 or 1 are not understated); a cell without games stays empty."""
    frame = matchup_frame().with_columns(lo=pl.col("rate") - 0.012, hi=pl.col("rate") + 0.031)
    frame = frame.with_columns(rate=pl.when((pl.col("players") == 4) & (pl.col("strategy") == "random")
                                            & (pl.col("opponent_strategy") == "greedy")).then(None)
                               .otherwise(pl.col("rate")))
    plots.matchups(frame, tmp_path / "m.png")
    texts = [[t.get_text() for t in ax.texts] for ax in panels(drawn["m.png"])]
    assert "40.0%\n±3.1" in texts[0] and "70.0%\n±3.1" in texts[1]
    assert all(t.endswith("±3.1") for t in texts[0]) and len(texts[1]) == len(texts[0]) - 1
    narrow = matchup_frame().with_columns(lo=pl.col("rate") - 0.0003, hi=pl.col("rate") + 0.0003)
    plots.matchups(narrow, tmp_path / "n.png")  # many games: a narrow interval is not written ±0.0
    assert all(t.get_text().endswith("\n±0.03") for ax in panels(drawn["n.png"]) for t in ax.texts)
    plots.matchups(matchup_frame(), tmp_path / "plain.png")  # no interval given: the rate alone
    assert all("±" not in t.get_text() for ax in panels(drawn["plain.png"]) for t in ax.texts)


# ---- restricted play -------------------------------------------------------------------------


def points(ax) -> list[tuple[float, float, tuple]]:
    """The estimates of a forest plot, top to bottom: (y, x, marker face colour); the error
    bars' caps are lines too, with their own markers."""
    return sorted((y, x, to_rgba(line.get_markerfacecolor())) for line in ax.lines
                  if line.get_marker() == "o" for x, y in zip(line.get_xdata(), line.get_ydata()))


def test_card_restriction_without_players_draws_one_panel_as_restrict_does(tmp_path, drawn):
    frame = restriction_frame()
    assert "players" not in frame.columns
    plots.card_restriction(frame, tmp_path / "r.png")
    (ax,) = panels(drawn["r.png"])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["card 6", "card 5", "card 1", "card 3"]
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # most harmful at the top
    white = to_rgba("white")
    # cards 6, 5 and 3 have intervals clear of 0 (filled); card 1's includes 0 (hollow)
    assert [face == white for _, _, face in points(ax)] == [False, False, True, False]
    assert "pp" in ax.get_xlabel() and pp_tick(ax.xaxis, -0.0728) == pytest.approx(-7.28, abs=0.05)
    labels = ax.get_legend().get_texts()
    assert sorted(t.get_text() for t in labels) == ["interval excludes 0", "interval includes 0"]


def test_a_name_the_font_cannot_draw_keeps_its_id_instead_of_empty_boxes(tmp_path, drawn):
    """142 ZENONZARD cards have only a Japanese name, which the figures' font (DejaVu Sans) has
    no glyphs for: matplotlib warned and drew empty boxes. The label shows '…' for the name and
    keeps the image id, which the report's table lists beside the name."""
    import warnings

    frame = restriction_frame().with_columns(
        pl.Series("card", ["復讐のドラゴン (colorless_09_02_02r_00)", "Alrûna (green_01)", "Ashbringer", "「獣王」x"]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph ... missing from font(s)" is a UserWarning
        plots.card_restriction(frame, tmp_path / "jp.png")
    (ax,) = panels(drawn["jp.png"])
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "… (colorless_09_02_02r_00)", "Alrûna (green_01)", "Ashbringer", "…x"]


def test_a_long_card_list_is_drawn_as_its_largest_changes():
    """ZENONZARD's 280 cards made a figure thousands of pixels tall: a figure shows the 24
    largest |differences| (per player count), the most harmful and the most helpful alike."""
    rng = np.random.default_rng(5)
    d = rng.normal(0, 0.02, 100)
    frame = pl.DataFrame({"card": [f"c{i}" for i in range(100)], "difference": d, "lo": d - 0.01, "hi": d + 0.01})
    top = plots.largest_changes(frame)
    assert top.height == plots.CARDS_DRAWN == 24
    assert set(top["card"]) == {f"c{i}" for i in np.argsort(-np.abs(d))[:24]}
    both = pl.concat([frame.with_columns(players=pl.lit(p)) for p in (2, 3)]).head(130)  # 30 rows at 3
    top = plots.largest_changes(both)
    assert top.group_by("players").len().sort("players")["len"].to_list() == [24, 24]
    assert plots.largest_changes(frame.head(10)).height == 10


def test_card_restriction_with_players_shares_one_axis_across_panels(tmp_path, drawn):
    frame = restriction_frame(PLAYERS)
    plots.card_restriction(frame, tmp_path / "rp.png")
    axes = panels(drawn["rp.png"])
    assert [ax.get_title() for ax in axes] == [f"{n} players" for n in PLAYERS]
    assert_shared(axes, "x")
    low, high = axes[0].get_xlim()
    assert low < -0.0728 * 5 / 4 - 0.01 and high > 0  # the 5-player extreme fits every panel
    for ax, n in zip(axes, PLAYERS):
        expected = frame.filter(pl.col("players") == n).sort("difference")["difference"]
        assert np.allclose([x for _, x, _ in points(ax)], expected)
