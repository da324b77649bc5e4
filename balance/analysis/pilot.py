"""Planning a comparison from a pilot: how many games the same `balance compare` needs for each
of its tested rows to find a difference, measured with the pilot's own noise.

A pilot comparison (a few thousand games) gives, for every tested row, the paired difference
and its interval. The interval's half-width is z * sd / sqrt(n), so it gives the per-game sd
of the paired differences, the quantity common random numbers shrink and no formula knows in
advance. The games a row needs to find a difference e with power 1 - beta at level a are then
n = ((z_{1-a/2} + z_{1-beta}) sd / e)^2 (``stats.games_for_difference`` with that sd).

The level is Holm's first, alpha / m over the m tested rows of the pilot (the comparison to
be run tests the same rows; with --primary, the m rows of its question, their own family): a
row whose own p is below it is significant whatever the others show, so the figures are the
games at which each difference is found with at least the power asked (Holm can only add to
it).

The fairness rows (``compare.FAIRNESS``) are tested on the squared distance U:
comparison.json keeps their tested change ``u_change`` and its standard error ``u_se``, and
the same formula sizes them for the change the pilot saw (an effect in pp of distance has no
one meaning in U, so they get no --effect figure).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from balance.analysis import stats
from balance.analysis.compare import DESCRIPTIVE, FAIRNESS
from balance.core.errors import BalanceError, one_of

# Tested rows planned otherwise: seat_shift is one test over every seat at once, whose seats'
# own rows (win_share_seat0, ...) are planned one by one.
SKIPPED = ("seat_shift",)
# Rows that describe and test nothing: never planned, nor a question
UNTESTED = (*DESCRIPTIVE, "side_imbalance")


def load_pilot(path: Path) -> dict:
    """The comparison.json at ``path`` (the file, or the directory holding it)."""
    path = Path(path)
    file = path / "comparison.json" if path.is_dir() else path
    try:
        report = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        from balance.analysis.study import held_instead

        allowed = "a directory `balance compare` wrote (its --out)"
        instead = held_instead(path, "compare", allowed)
        if instead:  # a comparison cut before it finished, or another command's output
            raise BalanceError(f"--pilot {path}: {instead}") from None
        raise BalanceError(f"--pilot {path}: no comparison.json there; allowed: {allowed}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BalanceError(f"--pilot {path}: {file.name} cannot be read as a comparison ({e})") from None
    several = isinstance(report, dict) and "by_players" in report  # a comparison at several player counts
    for part in (report["by_players"] if several and isinstance(report["by_players"], list) else [report]):
        if not isinstance(part, dict) or not {"results", "units", "confidence"} <= part.keys():
            raise BalanceError(f"--pilot {path}: {file.name} is not a `balance compare` comparison.json")
        wrong = _malformed(part)
        if wrong:
            raise BalanceError(f"--pilot {path}: {file.name} has {wrong} (edited?); give the comparison.json "
                               "`balance compare` wrote")
    return report


def _malformed(report: dict) -> str | None:
    """What of a comparison.json's shape planning reads is wrong (an edited or foreign file), or None."""
    def number(x) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

    def count(x) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and x >= 1

    if not (number(report["confidence"]) and 0 < report["confidence"] < 1):
        return f"confidence {report['confidence']!r}, not a level between 0 and 1"
    if not (number(report.get("alpha", 0.05)) and 0 < report.get("alpha", 0.05) < 1):
        return f"alpha {report['alpha']!r}, not a level between 0 and 1"
    if not (isinstance(report.get("game"), str) and count(report.get("players")) and count(report.get("games"))):
        return "no game id, player count and games per variant"
    if not isinstance(report["units"], dict):
        return "units that are not a table of metric units"
    rows = report["results"]
    if not (isinstance(rows, list) and all(isinstance(r, dict) and isinstance(r.get("metric"), str) for r in rows)):
        return "results that are not a list of rows, each naming its metric"
    for r in rows:
        # a fairness row's U figures (a row without them predates planning: row_sd says so)
        numbers = ("lo", "hi", "difference", *(("u_change", "u_se") if r["metric"] in FAIRNESS and "u_se" in r else ()))
        if r.get("p_value") is not None and not (isinstance(r.get("variant"), str) and count(r.get("games"))
                                                 and all(number(r.get(k)) for k in numbers)):
            return (f"a tested {r['metric']} row without its variant, a positive whole number of games and "
                    f"finite {', '.join(numbers)}")
    return None


def family(report: dict, row: dict) -> int:
    """How many tested rows the Holm family of ``row`` holds: every tested row of the
    comparison, or with --primary the row's own family (primary or secondary); in one player
    count of a comparison at several, the family over every count (``family_sizes``)."""
    sizes = report.get("family_sizes")
    if sizes:
        return sizes[row.get("family") or "all"]
    return sum(r.get("p_value") is not None and r.get("family") == row.get("family") for r in report["results"])


def row_sd(report: dict, row: dict) -> float:
    """The per-game sd of a tested row's paired differences, read back from its interval
    (half-width z sd / sqrt(n)); of U for a fairness row (its ``u_se``)."""
    n = int(row["games"])
    if row["metric"] in FAIRNESS:
        if "u_se" not in row:
            raise BalanceError(f"the pilot's {row['metric']} row predates planning (no u_se): run the "
                               "pilot again with this version")
        return float(row["u_se"]) * math.sqrt(n)
    return stats.se_from_interval(float(row["lo"]), float(row["hi"]), report["confidence"]) * math.sqrt(n)


def detectable_change(report: dict, row: dict, power: float = 0.9) -> float | None:
    """The change of a (non-fairness) tested row's metric that a comparison of this size finds
    with ``power`` at Holm's first level alpha / m: (z_{1-a/(2m)} + z_power) se, from the
    row's own interval (``stats.detectable_from_interval``, the inverse of the plan). None
    when the row's games were identical (no noise to scale)."""
    if not row["hi"] > row["lo"]:
        return None
    return stats.detectable_from_interval(row["lo"], row["hi"], report["confidence"], power,
                                          report["alpha"] / family(report, row))


def _games(effect: float, sd: float, power: float, level: float) -> int | None:
    """Games to find ``effect`` with per-game sd ``sd``; None without an effect, or without
    variation to scale (a row the pilot saw constant, such as a turn cap never reached,
    says nothing about the noise a change would bring)."""
    if effect == 0 or not sd > 0 or not math.isfinite(sd):
        return None
    return stats.games_for_difference(abs(effect), None, power, level, paired_sd=sd)


def plan_counts(report: dict, effect: float | None = 0.01, power: float = 0.9, alpha: float | None = None,
                primary: list[str] | None = None, margin: float | None = None,
                margins: dict[str, float] | None = None) -> dict:
    """``plan_from_pilot`` of a pilot at several player counts (``report["by_players"]``): the
    comparison corrects every count's rows together, so each count is planned at the level of
    the family over every count (alpha / the rows of the question at all counts; the margins at
    alpha / the rows with one at all counts). Returns dict(by_players: each count's plan, family,
    margin_family, alpha, power, effect)."""
    counts = report["by_players"]
    alone = [plan_from_pilot(r, effect, power, alpha, primary, margin, margins) for r in counts]
    family = sum(p["own_family"] for p in alone)
    with_margin = sum(r["margin"] is not None for p in alone for r in p["rows"]) or None
    plans = [plan_from_pilot(r, effect, power, alpha, primary, margin, margins, family, with_margin) for r in counts]
    return {"by_players": plans, "family": family, "margin_family": with_margin, "alpha": plans[0]["alpha"],
            "power": power, "effect": effect}


def plan_from_pilot(report: dict, effect: float | None = 0.01, power: float = 0.9,
                    alpha: float | None = None, primary: list[str] | None = None,
                    margin: float | None = None, margins: dict[str, float] | None = None,
                    family: int | None = None, margin_family: int | None = None) -> dict:
    """Games per variant for each tested row of the pilot ``report`` (a comparison.json).

    effect: a difference in a rate (0.01 = 1 pp) to size the rate rows for (None: none);
    alpha: the family-wise level planned (default the pilot's); primary: the metrics of the
    comparison's question (``compare(primary=)``; default the pilot's own, if it had one): only
    their rows are planned, at alpha / (their count), the family they will be corrected in; a
    seat_shift of the question through its seats' rows, each at Sidak's 1 - (1 - alpha / m)^(1 /
    players), the level at which the most-moved seat decides it. Returns dict(family m, level
    alpha / m, own_family (this pilot's rows of it), seat_level (None without seat_shift in the
    question), primary (the question planned, or None), untested (its metrics the pilot has no
    row of, e.g. a cooperative game's side test when a team won too few games), rows): one per
    tested row (of the question) but seat_shift (its seats' rows instead, with a question), with
    variant, metric, unit, games (the pilot's), difference, lo, hi (the pilot's), sd (per game, on the test's scale:
    ``u`` for the fairness rows), for_effect (games to find ``effect``, rate rows only) and
    for_own (games to find the difference the pilot saw); each None where the pilot cannot
    say (a row constant in its games, or no difference seen).

    margin, margins: as ``compare``'s (a rate's margin; a margin per named metric, in its
    unit; neither given: the pilot's own): each planned row with one (not a fairness row, nor
    seat_shift's seats) also gets ``margin`` and ``for_margin``, the games for two one-sided
    tests to show its change within +-margin with ``power`` if the true change is the one the
    pilot saw
    (``stats.games_for_equivalence``; None where that reaches the margin), at alpha / (the rows
    with a margin), Bonferroni over the family the comparison corrects them in (Holm's first
    level); the result's ``margin_level``.

    family, margin_family: the sizes of those two families when they hold more than this
    pilot's rows (one count of a comparison at several: ``plan_counts``).
    """
    alpha = report.get("alpha", 0.05) if alpha is None else alpha
    stats.check_power_alpha(power, alpha)
    tested = [r for r in report["results"] if r.get("p_value") is not None]
    primary = report.get("primary") if primary is None else list(dict.fromkeys(primary))
    if margin is None and not margins:  # the pilot's own margins, as its own question
        margin, margins = report.get("margin"), report.get("margins")
    for metric in primary or ():
        if metric not in report["units"] or metric in UNTESTED:
            raise one_of("primary metric (a tested row of the pilot)", metric,
                         dict.fromkeys(r["metric"] for r in tested))
    untested = [m for m in primary or () if not any(r["metric"] == m for r in tested)]
    asked = [r for r in tested if r["metric"] in primary] if primary else tested
    m = len(asked)
    if not m:
        raise BalanceError(f"the pilot tested no row of {', '.join(primary or ['any metric'])} to plan from"
                           + (" (a cooperative game's sides go untested when a team wins too few games: a "
                              "larger pilot)" if primary else ""))
    own, m = m, family or m
    level = alpha / m
    players = int(report["players"])
    # seat_shift is decided by its most-moved seat at Sidak's per-seat level: planned through its seats
    seat_level = 1 - (1 - level) ** (1 / players) if primary and "seat_shift" in primary else None
    rows = []
    for r in asked:
        if r["metric"] not in SKIPPED:
            rows.append(_planned(report, r, r["metric"], level, effect, power))
        elif seat_level is not None:
            seats = [s for s in report["results"] if s["variant"] == r["variant"]][:players]  # seat rows lead
            rows += [_planned(report, s, f"seat_shift (seat {k})", seat_level, effect, power)
                     for k, s in enumerate(seats)]
    margin_level = _plan_margins(report, rows, margin, margins, power, alpha, primary, margin_family)
    return {"family": m, "own_family": own, "level": level, "seat_level": seat_level, "alpha": alpha, "power": power,
            "effect": effect, "rows": rows, "primary": primary, "untested": untested, "margin_level": margin_level}


def _plan_margins(report: dict, rows: list[dict], margin: float | None, margins: dict | None, power: float,
                  alpha: float, primary: list[str] | None, family: int | None = None) -> float | None:
    """Add ``margin`` and ``for_margin`` to every planned row (None where it has no margin);
    the level they are planned at, alpha / (the rows with one), or None when none has one.
    The margins are checked as ``compare`` checks them (against the pilot's metrics)."""
    from balance.analysis.compare import check_margin_metrics, check_margins, check_rate_margin, row_margins

    units = {m: u for m, u in report["units"].items() if m not in (*FAIRNESS, *SKIPPED, *UNTESTED)}
    margin = check_rate_margin(margin)
    margins = check_margins(margins, None)
    check_margin_metrics(margins, report["units"], primary)  # every row: a seat row's margin is told why not
    given = row_margins(margin, margins, units)
    eligible = sum(r["metric"] in given for r in rows)  # seat_shift's seats are named apart: none
    if (margin is not None or margins) and not eligible:
        raise BalanceError("no planned row has a margin: --margin M plans the rate rows of the question, "
                           "METRIC=M the metric it names; the question here has neither")
    level = alpha / (family or eligible) if eligible else None
    for r in rows:
        m = given.get(r["metric"])
        r["margin"] = m
        r["for_margin"] = (stats.games_for_equivalence(m, r["sd"], power, level, r["difference"])
                           if m is not None and r["sd"] > 0 and math.isfinite(r["sd"]) else None)
    return level


def _planned(report: dict, r: dict, metric: str, level: float, effect: float | None, power: float) -> dict:
    """A tested row ``r`` of the pilot planned at ``level``, named ``metric``: its pilot
    figures, per-game sd, and the games to find ``effect`` (a rate row) and its own difference."""
    unit = report["units"].get(r["metric"], "value")
    sd = row_sd(report, r)
    fairness = r["metric"] in FAIRNESS  # tested on U: sized on its change, and for no --effect
    own = float(r["u_change"] if fairness else r["difference"])
    return {
        "variant": r["variant"], "metric": metric, "unit": unit, "games": int(r["games"]),
        "difference": r["difference"], "lo": r["lo"], "hi": r["hi"], "sd": sd,
        "for_effect": _games(effect, sd, power, level) if unit == "rate" and effect and not fairness else None,
        "for_own": _games(own, sd, power, level),
    }
