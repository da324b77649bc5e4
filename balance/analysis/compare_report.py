"""The report of a rule-variant comparison: report.md and one self-contained report.html.

Rendered with the document model every report shares (``balance.analysis.document``) from the comparison dict
that ``balance.analysis.compare.compare`` returns (the same numbers as comparison.json).
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from balance.analysis import plots
from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Strong, Table, and_list, ci, missing,
                              num, p_phrase, pct, pp, pvalue, to_html, to_markdown)

RATE_UNITS = ("rate", "pp")  # a rate (shown in %) and a distance between rates (in pp)


def level(report: dict) -> str:
    """The comparison's confidence in words: '95%' at --alpha 0.05, '99.9%' at 0.001."""
    return f"{100 * report['confidence']:.4g}%"


def _adjusted(report: dict, r: dict) -> str:
    """How row ``r``'s adjusted p was adjusted: 'Holm-adjusted' or 'Benjamini-Hochberg-adjusted',
    '... among the secondary rows' for a row outside a --primary question."""
    return report["correction"].split(" ")[0] + "-adjusted" + (
        " among the secondary rows" if r.get("family") == "secondary" else "")


def _test(report: dict, r: dict) -> str:
    """', Holm-adjusted p = 0.03': row ``r``'s test, for a verdict sentence; nothing for a row
    without one, and in sequential mode, whose rows are descriptive (a p-value taken where the
    data chose to stop is not a valid test, so the verdict shows none)."""
    if r["p_adjusted"] is None or report.get("sprt"):
        return ""
    return f", {_adjusted(report, r)} {p_phrase(r['p_adjusted'])}"


def _question(report: dict, rows: list[dict]) -> list[dict]:
    """A variant's rows that are the comparison's question: those of the --primary metrics, in
    their order, else the first (seat 0's win rate, or the team's)."""
    primary = report.get("primary")
    if not primary:
        return rows[:1]
    return sorted((r for r in rows if r["metric"] in primary), key=lambda r: primary.index(r["metric"]))


def _is_rate(report: dict, metric: str) -> bool:
    """In rate units (differences in pp): a rate, as the game's metrics declare it, or a
    distance between rates."""
    return report["units"].get(metric) in RATE_UNITS


def _value(report: dict, metric: str, x) -> str:
    if report["units"].get(metric) == "pp":  # a distance between rates, not a rate
        return pp(x)
    return pct(x) if _is_rate(report, metric) else num(x, 3)


def _diff(report: dict, metric: str, x) -> str:
    if _is_rate(report, metric) or missing(x):
        return pp(x, signed=True)
    return f"{x:+.3f}"


def _interval(report: dict, r: dict) -> str:
    """'-0.51 to +1.20 pp' (rates) or '-0.013 to +0.020': the one interval notation."""
    if missing(r["lo"]) or missing(r["hi"]):
        return "—"
    if _is_rate(report, r["metric"]):
        return ci(r["lo"], r["hi"], " pp")
    return f"{r['lo']:+.3f} to {r['hi']:+.3f}"


def change_text(report: dict, r: dict, kind: str = "") -> str:
    """'40.02% -> 37.00% (difference -3.02 pp, 95% CI -3.51 to -2.53 pp': a row's change in its
    own units, as the report writes it (the printed summary's words); ``kind`` qualifies the
    interval ("simultaneous ")."""
    m = r["metric"]
    return (f"{_value(report, m, r['baseline'])} -> {_value(report, m, r['value'])} (difference "
            f"{_diff(report, m, r['difference'])}, {kind}{level(report)} CI {_interval(report, r)}")


def _reduction(x) -> str:
    if x in (None, "inf"):
        return "identical games" if x == "inf" else "–"
    return f"{x:,.1f}x"


def _label(r: dict) -> str:
    """The metric's name, with the seat a seat_shift row speaks of."""
    return f"{r['metric']} (seat {r['seat']})" if r.get("seat") is not None else r["metric"]


def _significant(x) -> str:
    return "–" if x is None else ("yes" if x else "no")


def _within(r: dict) -> str:
    """A row's equivalence test in a cell: 'yes (0.0031)', 'no (0.41)', or '–' (not tested)."""
    if r.get("p_equivalent_adjusted") is None:
        return "–"
    return f"{'yes' if r['equivalent'] else 'no'} ({pvalue(r['p_equivalent_adjusted'])})"


def margin_text(report: dict, r: dict) -> str:
    """A tested row's margin in its metric's unit: '±0.50 pp' (a rate), '±1' (a length). A row
    of a comparison written before per-metric margins has the comparison's one margin."""
    m = r.get("margin", report.get("margin"))
    return f"±{pp(m)}" if _is_rate(report, r["metric"]) else f"±{m:g}"


def one_margin(report: dict, rows: list[dict]) -> str | None:
    """The margin every equivalence-tested row of ``rows`` shares ('±0.50 pp'), else None (with
    no tested row: --margin's rate margin when it is the only one given)."""
    given = {margin_text(report, r) for r in rows if r.get("p_equivalent") is not None}
    if not given and report.get("margin") is not None and not report.get("margins"):
        return f"±{pp(report['margin'])}"
    return given.pop() if len(given) == 1 else None


def by_margin(report: dict, rows: list[dict]) -> dict[str, list[str]]:
    """The labels of ``rows`` grouped by their margin's text, in the rows' order:
    {'±2.00 pp': ['win_share_seat0', ...], '±0.5': ['mean_score']}."""
    out: dict[str, list[str]] = {}
    for r in rows:
        out.setdefault(margin_text(report, r), []).append(_label(r))
    return out


def _has_margin(report: dict) -> bool:
    return report.get("margin") is not None or bool(report.get("margins"))


def write_compare_report(report: dict, out_dir) -> dict:
    """Write report.md, report.html and figures/*.png for ``report`` into ``out_dir``; a
    comparison at several player counts (``by_players``) gets one report of every count."""
    out_dir = Path(out_dir)
    fig_dir = out_dir / "figures"
    fig_dir.mkdir(parents=True, exist_ok=True)
    counts = report.get("by_players")
    if counts:
        figures = [_figures(r, fig_dir, f"-{r['players']}") for r in counts]
        sections = [counts_verdict(report)]
        for r, f in zip(counts, figures):
            sections += [Section(f"{r['players']} players: setup", setup(r).blocks),
                         Section(f"{r['players']} players: results", results_section(r, f["differences"]).blocks)]
        sections.append(counts_methods(report))
        drawn = [path for f in figures for path in f.values()]
    else:
        figures = _figures(report, fig_dir)
        sections = [verdict(report), setup(report), results_section(report, figures["differences"])]
        if report.get("sprt"):
            sections.append(sprt_section(report, figures["sprt"]))
        sections.append(methods(report))
        drawn = list(figures.values())
    title = f"{report['title']}: rule variants compared"
    md = out_dir / "report.md"
    page = out_dir / "report.html"
    md.write_text(to_markdown(title, sections, out_dir), encoding="utf-8")
    page.write_text(to_html(title, sections), encoding="utf-8")
    return {"markdown": md, "html": page, "figures": drawn}


def _figures(report: dict, fig_dir: Path, suffix: str = "") -> dict[str, Path]:
    """The differences figure of one comparison (one player count), and its SPRT's."""
    results = pl.DataFrame(report["results"], infer_schema_length=None)
    figures = {"differences": plots.differences(  # rows with an interval (not the descriptions)
        results.filter(pl.col("lo").is_not_null())
        .select("variant", "metric", "difference", "lo", "hi", pl.col("significant").fill_null(False))
        .with_columns(is_rate=pl.col("metric").is_in(
            [m for m, unit in report["units"].items() if unit in RATE_UNITS])),  # as _is_rate
        fig_dir / f"differences{suffix}.png", level(report))}
    sprt = report.get("sprt")
    if sprt:
        history = pl.DataFrame(
            [{"variant": v["variant"], "games": n, "llr": llr}
             for v in sprt["variants"] for n, llr in v["history"]],
            schema={"variant": pl.String, "games": pl.Int64, "llr": pl.Float64})
        first = sprt["variants"][0]
        figures["sprt"] = plots.sprt_trajectories(history, fig_dir / f"sprt{suffix}.png", first["lower"],
                                                  first["upper"])
    return figures


def counts_verdict(report: dict) -> Section:
    """The verdict of a comparison at several player counts: each count's, under its count,
    after a line saying that their rows were corrected together."""
    counts = report["by_players"]
    blocks = [Para((f"Every variant played at {and_list(r['players'] for r in counts)} players, each count "
                    f"on the same game numbers. The rows of every count are corrected together by "
                    f"{report['correction'].split(' (')[0]}, each family spanning the counts: what a family's "
                    "correction holds (Methods), it holds over every count, not over one count at a time.",))]
    for r in counts:
        blocks += [Para((Strong(f"{r['players']} players"),)), *verdict(r).blocks]
    return Section("Verdict", blocks)


def counts_methods(report: dict) -> Section:
    """The Methods of a comparison at several player counts: the first count's, with the
    seat_shift text of every count (its Sidak level depends on the count's seats)."""
    counts = report["by_players"]
    first = counts[0]
    seat_texts = {r["players"]: r["methods"].get("seat_shift") for r in counts}
    if all(seat_texts.values()):
        first = {**first, "methods": {**first["methods"], "seat_shift": "; ".join(
            f"at {n} players, {text}" for n, text in seat_texts.items())}}
    return methods(first)


def by_variant(report: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in report["results"]:
        out.setdefault(r["variant"], []).append(r)
    return out


def _row(rows: list[dict], metric: str) -> dict:
    return next(r for r in rows if r["metric"] == metric)


def _fairness(distance: dict) -> str:
    """A distance test's verdict in words: fairer or less fair only when it is significant."""
    return {True: "fairer" if distance["difference"] < 0 else "less fair",
            False: "no significant change in fairness",
            None: "fairness descriptive, at the sequential stop"}[distance["significant"]]


def _not_unchanged(report: dict, distance: dict) -> str:
    """What a fairness test that found no change leaves open, said where a designer reads
    "no significant change" as "unchanged" (or a fall to "no more than noise" as "fixed"): the
    changes its unadjusted interval holds, from its low end to its high end (a fall to fair
    where the low end reaches 0). The interval is each row's own and the verdict Holm's, so it
    may hold no 0 though the test found nothing: it is named unadjusted. Not a power figure:
    the test's sd at a changed variant is not the sd it measured here (the arms' games part
    more), so a 90%-power reach from it was found to hold only 70 to 85% of the time. Empty
    for a significant, sequential or noise-free row."""
    identical = distance.get("variance_reduction") in (float("inf"), "inf")  # "inf" as comparison.json has it
    if distance["significant"] is not False or identical or not distance["hi"] > distance["lo"]:
        return ""
    metric, base, lo, hi = distance["metric"], distance["baseline"], distance["lo"], distance["hi"]

    def change(x: float) -> str:  # one end of the interval as a change, in pp
        size = _diff(report, metric, abs(x)).lstrip("+")
        if size.startswith("0.00 "):  # "a fall of 0.00 pp" read as a sign the interval does not have
            return "no change"
        if x < 0:
            return f"a fall to fair ({size} less)" if base + x <= 1e-12 else f"a fall of {size}"
        return f"a rise of {size}"

    # the interval is the row's own, the verdict the corrected test's (on the squared distance):
    # an interval that leaves 0 out beside "no significant change" is said to be no contradiction
    # (as its ends read: an end that rounds to no change is not said to leave it out)
    ends = change(lo), change(hi)
    apart = ("; its unadjusted interval leaves out no change, but the test, corrected over the "
             "comparison's rows, does not find one" if (lo > 0 or hi < 0) and "no change" not in ends else "")
    return (f"; not shown unchanged: anything from {ends[0]} to {ends[1]} fits these games "
            f"(its unadjusted {level(report)} interval; balance plan --pilot gives the games to tell){apart}")


def _distance_words(report: dict, distance: dict) -> tuple:
    """'11.36 pp → 6.96 pp (-4.39 pp, 95% CI ..., Holm-adjusted p ...)' of a distance row (a
    relative distance in %), with what it leaves open when it found no change
    (``_not_unchanged``)."""
    metric = distance["metric"]
    test = _test(report, distance)

    def shown(x) -> str:
        # the distance has the noise taken out and stops at 0: a 0 means the seats (or sides) spread
        # no more than chance alone spreads them, not that every one sat on fair
        return _value(report, metric, x) + (" (no more than noise)" if x == 0 else "")

    return (f"{shown(distance['baseline'])} → {shown(distance['value'])} "
            f"({_diff(report, metric, distance['difference'])}, unadjusted {level(report)} CI "
            f"{_interval(report, distance)}{test}){_not_unchanged(report, distance)}",)


def _seat_lines(report: dict, variant: str, rows: list[dict]) -> tuple:
    """The seats in words: are they nearer fair (the seat_distance test), and the seat_shift
    test's most-moved seat."""
    shift, distance = _row(rows, "seat_shift"), _row(rows, "seat_distance")
    head = ("Seats under ", Code(variant), ": ", Strong(_fairness(distance)), ": the seats' distance from fair ",
            *_distance_words(report, distance))
    seat0 = next((r for r in rows if r["metric"] == "win_share_seat0"), None)
    if report.get("players") == 2 and seat0 is not None:
        # one seat's move is the other's: seat 0's own row answers "did a seat move", and seat_shift's
        # Sidak over two seats (and another place in the correction) had judged the same number apart
        moved = {True: "seat 0 moved", False: "seat 0 did not move significantly",
                 None: "seat 0's move descriptive, at the sequential stop"}[seat0["significant"]]
        return (*head, f"; {moved} ({_diff(report, 'win_share_seat0', seat0['difference'])}, the win_share_seat0 "
                f"row{_test(report, seat0)}; with two seats, one seat's move is the other's).")
    moved = {True: "a seat moved", False: "no significant move",
             None: "seat moves descriptive, at the sequential stop"}[shift["significant"]]
    test = _test(report, shift)
    return (*head, f"; {moved} (largest: seat {shift['seat']}, "
            f"{_diff(report, 'seat_shift', shift['difference'])}, unadjusted simultaneous {level(report)} CI "
            f"{_interval(report, shift)}, Šidák over seats{', then' + test[1:] if test else ''}).")


def verdict(report: dict) -> Section:
    items = [("Warning: ", w, ".") for w in report.get("warnings", [])]
    if isinstance(report.get("seat_sides"), list):  # a caution before the seat lines it qualifies
        held = [part for i, side in enumerate(report["seat_sides"]) for part in ((", " if i else "") + f"seat {i} ",
                                                                                Code(side))]
        items.append(("Sides given (--side), the same in every variant: ", *held, ". " + _given_sides_words(report)))
    base = report["baseline"]
    sprt = report.get("sprt")
    decided = {v["variant"]: v for v in (sprt or {}).get("variants", [])}
    for variant, rows in by_variant(report).items():
        if sprt:
            items.append(_sprt_line(report, base, decided[variant]))
        else:
            items.append(_fixed_line(report, base, variant, rows))
        if any(r["metric"] == "seat_shift" for r in rows):  # none for a cooperative game
            items.append(_seat_lines(report, variant, rows))
        if report.get("sides"):
            items.append(_side_line(report, variant, rows))
        if _has_margin(report) and not sprt:
            items.append(_equivalence_line(report, variant, rows))
    return Section("Verdict", [Bullets(items)])


def _equivalence_line(report: dict, variant: str, rows: list[dict]) -> tuple:
    """Which rows of the question are shown to have changed by less than their margin (TOST,
    corrected over them), with the largest adjusted p among them (and which of them also
    differ: a change found, smaller than the margin), then those not shown so (their changes
    may reach the margin: "no significant difference" does not say it is small). One margin is
    said once; several (a rate's and a length's) are said beside each row."""
    asked = [r for r in rows if r.get("p_equivalent") is not None]
    within = [r for r in asked if r["equivalent"]]
    margin = one_margin(report, rows)
    head = (f"Margin {margin} under " if margin else "Margins under ", Code(variant), ": ")
    if not asked:
        return head + ("no row of the question with a margin to test (--margin applies to rates, and to "
                       "the metrics it names).",)
    test = f"two one-sided tests, {_adjusted(report, asked[0])}"

    words = []
    if within:
        moved = [r for r in within if r["significant"]]
        for i, (m, labels) in enumerate(by_margin(report, within).items()):  # "; by less than ±0.5 mean_score"
            words += ["; " if i else "", Strong(f"{'' if i else 'changed '}by less than {m}"), " " + ", ".join(labels)]
        words.append(f" ({test} {p_phrase(max(r['p_equivalent_adjusted'] for r in within)).replace('=', '≤')}"
                     + (f"; {', '.join(_label(r) for r in moved)} also found different: a change smaller than "
                        "the margin" if moved else "") + ")")
    rest = [r for r in asked if not r["equivalent"]]
    if rest:
        words += [("; " if within else "") + f"not shown within {'it' if margin else 'its margin'}"
                  + ("" if within else " (two one-sided tests)") + ": " + ", ".join(
            f"{_label(r)} ({'' if margin else f'margin {margin_text(report, r)}: '}"
            f"{_diff(report, r['metric'], r['difference'])}, unadjusted {level(report)} CI "
            f"{_interval(report, r)}, {_adjusted(report, r)} {p_phrase(r['p_equivalent_adjusted'])})"
            for r in rest[:5])
            + (f" and {len(rest) - 5} more" if len(rest) > 5 else "") + _inside(report, rest)]
    return head + tuple(words) + (".",)


def _inside(report: dict, rest: list[dict]) -> str:
    """Why a row whose unadjusted interval lies inside its margin is not shown within it: the
    two one-sided tests are corrected over every row with a margin, so each must pass at a
    stricter level than the interval's; '' when no such row."""
    if not any(-r["margin"] < r["lo"] and r["hi"] < r["margin"] for r in rest):
        return ""
    return (" (an unadjusted interval inside the margin is not enough: the tests are corrected over every row "
            f"with a margin, of every variant{' and count' if report.get('counts') else ''}; a question named "
            "with --primary before the games has fewer rows, and more power)")


def _fairer(imbalance: dict) -> str:
    """An imbalance row's change in a word: a smaller distance from fair is fairer."""
    d = imbalance["difference"]
    if missing(d):  # a relative spread of sides none of which won
        return "not comparable: no side won"
    return "fairer" if d < 0 else "less fair" if d > 0 else "unchanged"


def _side_line(report: dict, variant: str, rows: list[dict]) -> tuple:
    """The sides (e.g. factions) in words: the side whose win rate moved most, with its own
    test; then whether the sides are nearer their average: the side_distance test in a
    competitive game, the side_relative_distance test in a cooperative one (whose sides'
    average moves with its difficulty), else (a team that won too few games to test) their
    descriptive relative spread."""
    label, names = report["sides"]["label"], report["sides"]["metrics"]
    moved = max((r for r in rows if r["metric"] in names), key=lambda r: abs(r["difference"]))
    test = _test(report, moved) or ", descriptive at the sequential stop"
    metric = moved["metric"]
    if moved["difference"] == 0:  # no side's rate changed at all (every mean difference 0): no "most" to name
        head = (f"{label.capitalize()} under ", Code(variant), f": no change in any of the {label}' rates "
                f"(each {_diff(report, metric, 0.0)}); ")
    else:
        head = (f"{label.capitalize()} under ", Code(variant), ": moved most ", Code(metric),
                f" {_value(report, metric, moved['baseline'])} → {_value(report, metric, moved['value'])} "
                f"({_diff(report, metric, moved['difference'])}, unadjusted {level(report)} CI "
                f"{_interval(report, moved)}{test}); ")
    distance = next((r for r in rows if r["metric"] in ("side_distance", "side_relative_distance")), None)
    if distance is not None:
        relative = ", relative to it," if distance["metric"] == "side_relative_distance" else ""
        return head + (Strong(_fairness(distance)), f": the {label}' distance from their average{relative} ",
                       *_distance_words(report, distance), ".")
    imbalance = _row(rows, "side_imbalance")
    return head + (f"the {label}' mean distance from their average, relative to it, "
                   f"{_value(report, 'side_imbalance', imbalance['baseline'])} → "
                   f"{_value(report, 'side_imbalance', imbalance['value'])} ({_fairer(imbalance)} as "
                   "measured; descriptive, noise adds to it; not tested: a variant's team won too few "
                   "games, about 25 or fewer, to be relative to).",)


def _fixed_line(report: dict, base: str, variant: str, rows: list[dict]) -> tuple:
    """A variant's verdict: what differs, and what of the comparison's question (``_question``)
    does not. With --primary the question's rows alone make it "different"; the secondary rows
    that differ follow, named so."""
    primary = report.get("primary")
    asked = _question(report, rows)
    decides = [r for r in rows if r["significant"] and (not primary or r.get("family") == "primary")]
    found = [r for r in rows if r["significant"] and primary and r.get("family") == "secondary"]
    untested = [m for m in primary or () if m not in {r["metric"] for r in rows}]  # the question's rows it lacks
    games = f"{rows[0]['games']:,} games each"
    label = (report.get("sides") or {}).get("label", "sides")
    left = (f"; {', '.join(untested)} not tested: its team won too few games for its {label}' rates to be "
            "relative to") if untested else ""
    if primary and not asked:
        head = [Code(variant), " vs ", Code(base), ": ", Strong("not tested"), f": the question ({', '.join(primary)}) "
                f"has no row for it ({games}){left}"]
    elif not decides:
        tested = [m for m in primary or () if m not in untested]
        where = f"in {', '.join(tested)}, the question asked (--primary; {games})" if primary else (
            f"in any metric ({games})")
        head = [Code(variant), " vs ", Code(base), ": ", Strong("no significant difference"),
                f" {where}{sensitivity(report, rows)}{left}"]
    else:
        head = [Code(variant), " vs ", Code(base), ": ", Strong("different"),
                " in the question asked (--primary)" if primary else "", " — ", *_changes(report, decides)]
        unmoved = [r for r in asked if not r["significant"] and r["p_value"] is not None]
        if unmoved:  # the comparison's own question: said either way, with what it could have found
            sized = _sized_row(report, rows)
            head += ["; but not " + ", ".join(
                f"{_label(r)}: {_value(report, r['metric'], r['baseline'])} → "
                f"{_value(report, r['metric'], r['value'])} ({_diff(report, r['metric'], r['difference'])}, "
                f"{pvalue(r['p_adjusted'])} adjusted{sensitivity(report, rows) if r is sized else ''})"
                for r in unmoved)]
        head += [left]
    if found:
        head += ["; secondary, not the question (corrected among themselves): ", *_changes(report, found)]
    return tuple(head) + (".",)


# a variant's significant side rows are named one by one up to this many, else counted
NAMED_SIDES = 3


def split_sides(report: dict, rows: list[dict]) -> tuple[list[dict], str]:
    """``rows`` (significant ones) -> the rows to name one by one, and words counting the
    sides' rows left out ('the win rates of 5 of the other 7 ' and the game's side label; ''
    when none is): a side's row is named where at most NAMED_SIDES sides moved, or where the
    --primary question names it; more are counted, so that dozens of moved sides do not bury
    the other rows. The printed summary and the report say the same."""
    sides = (report.get("sides") or {}).get("metrics", ())
    counted = set(sides) - set(report.get("primary") or ())  # a side the question names is named
    moved = [r for r in rows if r["metric"] in counted]
    if len(moved) <= NAMED_SIDES:
        return rows, ""
    other = " other" if len(counted) < len(sides) else ""
    return ([r for r in rows if r["metric"] not in counted],
            f"the win rates of {len(moved)} of the{other} {len(counted)} {report['sides']['label']}")


def _changes(report: dict, significant: list[dict]) -> list:
    """The significant rows in words, the sides' rows counted where many moved (``split_sides``)."""
    named, counted = split_sides(report, significant)
    parts = [_rows_words(report, named)] if named else []
    if counted:
        parts += [(", and " if named else "") + f"{counted} (the table names them)"]
    return parts


def _rows_words(report: dict, rows: list[dict]) -> str:
    """'mean_score 9.770 → 10.082 (+0.311, < 1e-6 adjusted), ...': rows' changes with adjusted p."""
    return ", ".join(
        f"{_label(r)} {_value(report, r['metric'], r['baseline'])} → {_value(report, r['metric'], r['value'])} "
        f"({_diff(report, r['metric'], r['difference'])}, {pvalue(r['p_adjusted'])} adjusted)" for r in rows)


def sensitivity(report: dict, rows: list[dict], power: float = 0.9) -> str:
    """'; a change of 1.20 pp in win_share_seat0 would have been found with 90% power': what a
    variant's comparison could have found in the first metric of its question (``_sized_row``),
    at Holm's first level over its family (``pilot.detectable_change``); empty when its games
    were identical, or when its question has no such metric."""
    from balance.analysis.pilot import detectable_change

    first = _sized_row(report, rows)
    if first is None:
        return ""
    change = detectable_change(report, first, power)
    if change is None:
        return ""
    return (f"; a change of {_diff(report, first['metric'], change).lstrip('+')} in {first['metric']} would "
            f"have been found with {power:.0%} power")


def _sized_row(report: dict, rows: list[dict]) -> dict | None:
    """The row of a variant's question (``_question``: the --primary metrics, else a seat's win
    rate or the team's) whose detectable change ``sensitivity`` gives: the first not found
    different (else the first) that is neither seat_shift (an interval simultaneous over the
    seats) nor a fairness row (tested on U, where a change in pp has no one size); None when
    there is none."""
    from balance.analysis.compare import FAIRNESS

    eligible = [r for r in _question(report, rows) if r["metric"] not in (*FAIRNESS, "seat_shift")]
    # what could have been found says most where nothing was: the first row the test did not find
    return next((r for r in eligible if not r["significant"]), eligible[0] if eligible else None)


def _sprt_line(report: dict, base: str, v: dict) -> tuple:
    s = report["sprt"]
    # the test is two-sided: delta is a size either way, so it carries no sign
    size = (pp(s["delta"]) if _is_rate(report, s["metric"]) else f"{s['delta']:.3f}") + f" in {s['metric']}"
    # the SPRT weighs a difference of delta against none: it favours one, it bounds neither
    word = {"H1": (Strong("different"), f": the sequential test favours a difference of {size} over none"),
            "H0": (Strong("no difference that matters"), f": the sequential test favours none over a difference "
                   f"of {size}"),
            "continue": (Strong("undecided"), f" about a difference of {size} at the cap")}[v["decision"]]
    return (Code(v["variant"]), " vs ", Code(base), ": ", *word,
            f" (decided after {v['games']:,} games)."
            if v["decision"] != "continue" else f" ({v['games']:,} games).")


def _given_sides_words(report: dict) -> str:
    """What the rows measure when --side gave the sides: a competitive game's seat rows are
    their sides' in those seats; a cooperative game's rows this team's; a side that leaves its
    counted part drawn (the engine's ``fixed_sides``) leaves that part to chance."""
    fixed = report.get("seat_sides_fixed") or [True] * len(report["seat_sides"])
    team = not any(r["metric"] == "seat_shift" for r in report["results"])
    if not any(fixed):
        return (f"What they leave out is drawn per game, the same in every variant, so the "
                f"{(report.get('sides') or {}).get('label', 'sides')}' own rows stand.")
    partly = "" if all(fixed) else " (what a side leaves out is drawn per game, the same in every variant)"
    if team:
        return f"The rows measure this team{partly}, and the sides' own rows are left out."
    return (f"A seat's rows are its side's in that seat{partly}, so the seats' fairness here is this matchup's, not "
            "the seat order's alone; the sides' own rows are left out.")


def setup(report: dict) -> Section:
    strategies = ", ".join(f"seat {s['seat']}: {s['label']}" + (f" as {s['side']}" if "side" in s else "")
                           for s in report["strategies"])
    rows = [[Code(v["name"]), Code(v["source"]),
             Code(", ".join(f"{k}={v['overrides'][k]}" for k in v["overrides"]) or "(rulebook)")]
            for v in report["variants"]]
    games = ("up to " if report.get("sprt") else "") + f"{report['games']:,}"
    common = report.get("common") or {}  # absent from comparisons written before --set
    start = ((" Every variant starts from ", Code(", ".join(f"{k}={v}" for k, v in common.items())),
              " (--set); the rules changed below are its own.") if common else ())
    sides = report.get("sides")
    # a designer checked a side's baseline against the run report's and found them apart
    rated = ((f" The {sides['label']}' win rates here are their seats' wins over the games expected to deal "
              "them (one number per game, so that games pair), not the run report's over the seat-games that "
              "held them: the two differ by the luck of the deal.",) if sides else ())
    given = ((" Each seat's side was given (--side), the same in every variant. " + _given_sides_words(report),)
             if isinstance(report.get("seat_sides"), list) else ())
    return Section("Setup", [
        Para((f"{report['game']}, {report['players']} players, {games} games per "
              f"variant, seed {report['seed']}. Strategies: {strategies}. Baseline: ",
              Code(report["baseline"]), ".", *start, *rated, *given)),
        Table(["variant", "as given", "rules changed"], rows, left=3),
    ])


def results_section(report: dict, figure: Path) -> Section:
    confidence = level(report)
    at = f" at {report['players']} players" if report.get("counts") else ""
    blocks = [Figure("differences", figure, f"Variant minus baseline{at}, {confidence} intervals")]
    if report.get("sprt"):
        blocks.append(Para((Strong("Descriptive."), " In sequential mode each variant's rows are "
                            "taken where its test stopped. An interval or p-value at a stopping "
                            "point the data chose is not a valid test, so no row is marked "
                            "significant; the sequential test's decision is the verdict.")))
    for variant, rows in by_variant(report).items():
        blocks.append(Para((Strong(variant), " vs ", Code(report["baseline"]),
                            f" ({rows[0]['games']:,} games)")))
        family = ["family"] if report.get("primary") else []  # primary or secondary, with --primary
        one = one_margin(report, rows)
        within = ([f"within {one or 'its margin'}: adjusted p"]
                  if _has_margin(report) else [])  # the equivalence test, with --margin
        blocks.append(Table(
            ["metric", *family, "baseline", "variant", "difference", f"{confidence} CI (unadjusted)", "p",
             "adjusted p", "significant", *within, "variance reduction"],
            [[Code(_label(r)), *([r.get("family", "–")] if family else []),
              _value(report, r["metric"], r["baseline"]),
              _value(report, r["metric"], r["value"]), _diff(report, r["metric"], r["difference"]),
              _interval(report, r), pvalue(r["p_value"]), pvalue(r["p_adjusted"]), _significant(r["significant"]),
              *([_within(r) if one or r.get("p_equivalent") is None else f"{margin_text(report, r)}: {_within(r)}"]
                if within else []), _reduction(r["variance_reduction"])] for r in rows],
            left=1 + len(family)))
    label = (report.get("sides") or {}).get("label")
    # the run report divides by the games that did deal a side, so its rate differs a little
    # (a designer saw one side 2 pp apart in the two, on the same games)
    prefix = (report.get("sides") or {}).get("metrics", ["win_share_NAME"])[0].rsplit("_", 1)[0]
    sides = (f"A side's win rate here ({prefix}_NAME) is its seats' win units over the games expected to deal "
             "it (games x its chance of being dealt), so that it is one number per game and paired game by "
             "game; `balance report` divides by the games that did deal it, so the two differ by the draw's "
             "noise, which shrinks as the games grow. "
             f"side_imbalance, the {label}' mean distance from their average, relative to it, "
             "describes each variant (no test); " + (
                 "side_distance: the root-mean-square distance of the sides from their average "
                 "(noise taken out), tested." if _has_seat_rows(report) else
                 "side_relative_distance: their root-mean-square distance from their average, "
                 "relative to it (noise taken out), tested, so a harder game that leaves them as "
                 "unequal is no change.")) if label else ""
    if _has_seat_rows(report):
        blocks.append(Para((
            f"seat_shift: the seat whose win rate moved most (largest |z|), with a "
            f"{100 * report.get('seat_confidence', report['confidence']):.2f}% interval so that the "
            f"intervals of all seats hold together with {confidence} confidence; seat_distance: the "
            "seats' root-mean-square distance from fair (noise taken out), tested; seat_gap and "
            "seat_imbalance describe each variant (no test). " + sides,)))
    elif sides:
        blocks.append(Para((sides,)))
    seat0 = [r for r in report["results"] if r["metric"] == "win_share_seat0"
             and r["variance_reduction"] not in (None, "inf")]
    if seat0:
        best = max(r["variance_reduction"] for r in seat0)
        # a factor near 1 (or below: pairing can add variance) is no saving to announce
        blocks.append(Para((
            f"Common random numbers: pairing each game with its twin cut the variance of seat 0's "
            f"win-rate difference up to {best:,.1f} times, so independent runs would need about "
            f"{best:,.1f} times as many games for the same precision." if best >= 1.05 else
            f"Common random numbers: pairing each game with its twin did not cut the variance of seat 0's "
            f"win-rate difference here (a factor of {best:,.2f}): independent runs would need about as "
            "many games.",)))
    return Section("Results", blocks)


def sprt_section(report: dict, figure: Path) -> Section:
    s = report["sprt"]
    rows = [[Code(v["variant"]), v["decision"], f"{v['games']:,}", f"{v['llr']:.2f}",
             f"{v['lower']:.2f}", f"{v['upper']:.2f}"] for v in s["variants"]]
    per_side = s.get("alpha_per_side", s["alpha"] / 2)
    return Section("Sequential test", [
        Para(("SPRT on ", Code(s["metric"]), f": H0 no difference, H1 a difference of "
              f"{_diff(report, s['metric'], s['delta'])}; false-H1 rate {s['alpha']} over all "
              f"{len(s['variants'])} variant(s) together ({per_side:.4g} per side of each test), "
              f"beta {s['beta']}, decisions after every {s['batch']:,} games; a variant stops "
              "being played once its test decides.",)),
        Table(["variant", "decision", "games", "llr", "accept H0 at", "accept H1 at"], rows),
        Figure("sprt", figure, "Log-likelihood ratio as games accumulate"),
    ])


def _has_seat_rows(report: dict) -> bool:
    """Whether the comparison has the seat rows (a competitive game; none for a cooperative one)."""
    return any(r["metric"] == "seat_shift" for r in report["results"])


def methods(report: dict) -> Section:
    m = report["methods"]
    seats = _has_seat_rows(report)
    items = [
        ("Pairing: ", m["pairing"], "."),
        ("Linear metrics: ", m["linear metrics"], "."),
        *([("Seat shift (the seat test): ", m["seat_shift"], "."),
           *([("Seat distance (the fairness test): ", m["seat_distance"], ".")] if "seat_distance" in m else []),
           *([("Side distance: ", m["side_distance"], ".")] if "side_distance" in m and report.get("sides") else []),
           ("Seat gap: ", m["seat_gap"], "."),
           ("Seat imbalance: ", m["seat_imbalance"], ".")] if seats else
          [("Seats: a cooperative game gives every seat the team's result, so there is no seat "
            "test; the team's win is the first metric.",),
           *([("Side relative distance: ", m["side_relative_distance"], ".")]
             if "side_relative_distance" in m and report.get("sides") else [])]),
        ("Variance reduction: ", m["variance_reduction"], "."),
        *([("Primary question (--primary): ", m["primary"], ".")] if "primary" in m else []),
        *([("Equivalence (--margin): ", m["equivalence"], ".")] if "equivalence" in m else []),
        *([("Player counts: ", m["player_counts"], ".")] if m.get("player_counts") else []),
        (f"Multiple comparisons: {report['correction']} "
         + ("within each family (the question's rows, the secondary rows: above) of the tested rows"
            if report.get("primary") else "over every tested row") + " (each metric"
         + (", seat_shift, seat_distance and, with sides, side_distance) of every variant; seat_gap, "
            "seat_imbalance and side_imbalance are not tests. "
            if seats else (", and side_relative_distance) of every variant; side_imbalance is not a test. "
                           if any(r["metric"] == "side_relative_distance" for r in report["results"])
                           else ") of every variant. "))
         + f"Significant means adjusted p < {report['alpha']}.",),
        *([("Intervals: ", m["intervals"], ".")] if "intervals" in m else []),  # absent before 2026-12
    ]
    if "sequential" in m:
        items += [
            ("Sequential mode: ", m["sequential"], "."),
            ("The test: Wald's SPRT with the normal approximation used by chess-engine testing "
             "(Fishtest), one one-sided test for each sign of the difference; a variant whose "
             "differences are all exactly zero accepts H0 once that run of zeros would be "
             "unlikely (at most beta) under a difference of delta.",),
        ]
    return Section("Methods", [Bullets(items)])
