"""The report of a rule-variant comparison: report.md and one self-contained report.html.

Rendered with the run report's document model (``balance.report``) from the comparison dict
that ``balance.compare.compare`` returns (the same numbers as comparison.json).
"""
from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from balance import plots
from balance.document import (Bullets, Code, Figure, Para, Section, Strong, Table, pvalue, to_html,
                            to_markdown)

RATE_METRICS = ("heroes_success", "tied_game", "seat_gap")


def _is_rate(metric: str) -> bool:
    return metric.startswith("win_share") or metric in RATE_METRICS


def _value(metric: str, x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{100 * x:.2f}%" if _is_rate(metric) else f"{x:.3f}"


def _diff(metric: str, x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{100 * x:+.2f} pp" if _is_rate(metric) else f"{x:+.3f}"


def _reduction(x) -> str:
    if x in (None, "inf"):
        return "identical games" if x == "inf" else "–"
    return f"{x:,.1f}x"


def write_compare_report(report: dict, out_dir) -> dict:
    """Write report.md, report.html and figures/*.png for ``report`` into ``out_dir``."""
    out_dir = Path(out_dir)
    fig_dir = out_dir / "figures"
    fig_dir.mkdir(parents=True, exist_ok=True)
    results = pl.DataFrame(report["results"], infer_schema_length=None)
    figures = {"differences": plots.differences(
        results.select("variant", "metric", "difference", "lo", "hi", "significant")
        .with_columns(pl.col("lo", "hi").fill_null(float("nan"))),
        fig_dir / "differences.png")}
    sprt = report.get("sprt")
    if sprt:
        history = pl.DataFrame(
            [{"variant": v["variant"], "games": n, "llr": llr}
             for v in sprt["variants"] for n, llr in v["history"]],
            schema={"variant": pl.String, "games": pl.Int64, "llr": pl.Float64})
        first = sprt["variants"][0]
        figures["sprt"] = plots.sprt_trajectories(history, fig_dir / "sprt.png", first["lower"], first["upper"])

    sections = [verdict(report), setup(report), results_section(report, figures["differences"])]
    if sprt:
        sections.append(sprt_section(report, figures["sprt"]))
    sections.append(methods(report))
    title = f"{report['title']}: rule variants compared"
    md = out_dir / "report.md"
    page = out_dir / "report.html"
    md.write_text(to_markdown(title, sections, out_dir), encoding="utf-8")
    page.write_text(to_html(title, sections), encoding="utf-8")
    return {"markdown": md, "html": page, "figures": list(figures.values())}


def _by_variant(report: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in report["results"]:
        out.setdefault(r["variant"], []).append(r)
    return out


def verdict(report: dict) -> Section:
    items = []
    base = report["baseline"]
    for variant, rows in _by_variant(report).items():
        significant = [r for r in rows if r["significant"]]
        if not significant:
            seat0 = next(r for r in rows if r["metric"] == "win_share_seat0")
            half = (seat0["hi"] - seat0["lo"]) / 2 if seat0["hi"] is not None else float("nan")
            items.append((Code(variant), " vs ", Code(base), ": ", Strong("no significant difference"),
                          f" in any metric ({report['games']:,} games each; seat 0's win rate is "
                          f"known to ±{100 * half:.2f} pp)."))
            continue
        parts = [Code(variant), " vs ", Code(base), ": ", Strong("different"), " — "]
        for i, r in enumerate(significant):
            parts += ([", "] if i else []) + [
                f"{r['metric']} {_value(r['metric'], r['baseline'])} → {_value(r['metric'], r['value'])} "
                f"({_diff(r['metric'], r['difference'])}, {pvalue(r['p_adjusted'])} adjusted)"]
        items.append(tuple(parts) + (".",))
    for v in (report.get("sprt") or {}).get("variants", []):
        word = {"H1": "a difference of at least", "H0": "no difference as large as",
                "continue": "undecided about a difference of"}[v["decision"]]
        items.append(("Sequential test, ", Code(v["variant"]), f": {word} "
                      f"{_diff(report['sprt']['metric'], report['sprt']['delta'])} in "
                      f"{report['sprt']['metric']} after {v['games']:,} games."))
    return Section("Verdict", [Bullets(items)])


def setup(report: dict) -> Section:
    strategies = ", ".join(f"seat {s['seat']}: {s['label']}" for s in report["strategies"])
    rows = [[Code(v["name"]), Code(v["source"]),
             Code(", ".join(f"{k}={v['overrides'][k]}" for k in v["overrides"]) or "(rulebook)")]
            for v in report["variants"]]
    return Section("Setup", [
        Para((f"{report['game']}, {report['players']} players, {report['games']:,} games per "
              f"variant, seed {report['seed']}. Strategies: {strategies}. Baseline: ",
              Code(report["baseline"]), ".")),
        Table(["variant", "as given", "rules changed"], rows, left=3),
    ])


def results_section(report: dict, figure: Path) -> Section:
    blocks = [Figure("differences", figure, "Variant minus baseline, 95% intervals")]
    for variant, rows in _by_variant(report).items():
        blocks.append(Para((Strong(variant), " vs ", Code(report["baseline"]))))
        blocks.append(Table(
            ["metric", "baseline", "variant", "difference", "95% CI", "p", "adjusted p",
             "significant", "variance reduction"],
            [[Code(r["metric"]), _value(r["metric"], r["baseline"]), _value(r["metric"], r["value"]),
              _diff(r["metric"], r["difference"]),
              f"[{_diff(r['metric'], r['lo'])}, {_diff(r['metric'], r['hi'])}]",
              pvalue(r["p_value"]), pvalue(r["p_adjusted"]), "yes" if r["significant"] else "no",
              _reduction(r["variance_reduction"])] for r in rows]))
    seat0 = [r for r in report["results"] if r["metric"] == "win_share_seat0"
             and r["variance_reduction"] not in (None, "inf")]
    if seat0:
        best = max(r["variance_reduction"] for r in seat0)
        blocks.append(Para((
            f"Common random numbers: pairing each game with its twin cut the variance of seat 0's "
            f"win-rate difference up to {best:,.1f} times, so independent runs would need about "
            f"{best:,.0f} times as many games for the same precision.",)))
    return Section("Results", blocks)


def sprt_section(report: dict, figure: Path) -> Section:
    s = report["sprt"]
    rows = [[Code(v["variant"]), v["decision"], f"{v['games']:,}", f"{v['llr']:.2f}",
             f"{v['lower']:.2f}", f"{v['upper']:.2f}"] for v in s["variants"]]
    return Section("Sequential test", [
        Para(("SPRT on ", Code(s["metric"]), f": H0 no difference, H1 a difference of at least "
              f"{_diff(s['metric'], s['delta'])}; alpha {s['alpha']} (two-sided), beta {s['beta']}, "
              f"decisions after every {s['batch']:,} games.",)),
        Table(["variant", "decision", "games", "llr", "accept H0 at", "accept H1 at"], rows),
        Figure("sprt", figure, "Log-likelihood ratio as games accumulate"),
    ])


def methods(report: dict) -> Section:
    m = report["methods"]
    return Section("Methods", [Bullets([
        ("Pairing: ", m["pairing"], "."),
        ("Linear metrics: ", m["linear metrics"], "."),
        ("Seat gap: ", m["seat_gap"], "."),
        ("Variance reduction: ", m["variance_reduction"], "."),
        (f"Multiple comparisons: {report['correction']} over every metric of every variant; "
         f"significant means adjusted p < {report['alpha']}.",),
        ("Sequential mode: Wald's SPRT with the normal approximation used by chess-engine testing "
         "(Fishtest); each one-sided test runs at alpha/2.",),
    ])])
