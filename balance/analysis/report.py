"""Run reports: a Markdown file and one self-contained HTML file (plus PNG figures) per run.

``write_run_report(run_dir, out_dir=None, mix_dir=None)`` reads a run directory written by
``balance simulate`` and writes into ``out_dir`` (default: the run directory itself, so a run
and its report stay together and ``--force`` on the run replaces both):

- ``report.md``    GitHub-flavoured Markdown; figures linked as ``figures/<name>.png``
- ``report.html``  the same content in one file: inline CSS, figures embedded as base64
  ``data:`` URIs, no external links, so it opens offline and can be mailed as is
- ``figures/*.png``

The first screen is the verdict: every sentence on it is decided by a named test (seat
fairness: chi-square, Holm over player counts; card strength: restricted play, paired, Holm
over cards; tie rates across player counts: chi-square of homogeneity), or says in plain
words why no test applies (every game a tie, a seat that never won). ``mix_dir`` (optional)
is a second run with several strategies rotated over the seats: its numbers become the
Strategies section, so the headline numbers can come from one strategy in every seat.

Every number comes from ``balance.analysis.aggregate`` frames (a few rows per player count), so a
billion-game run reports as fast as a thousand-game one.
"""
from __future__ import annotations

import json
import math
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from balance.analysis import aggregate, plots, stats
from balance.core import schema
from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Strong, Table, and_list, ci, code_list,
                              count, counted, diff_ci, num, p_phrase, pct, pp, pvalue, rate_ci, to_html,
                              to_markdown)
from balance.core.checkpoint import as_json
from balance.core.errors import BalanceError, as_path
from balance.core.game import CAPPED, GameInfo
from balance.core.output import FINISHED_OUTPUTS, REPORT_STAGING, publish
from balance.core.strategy import deterministic_alike, untuned_counts
from balance.core.variants import parse_overrides, setting_text

ALPHA = 0.05  # two-sided test level: "found" / "matters" in the report means adjusted p < ALPHA
POWER = aggregate.POWER  # the power every detectable edge and difference is sized for
LEVEL = f"{aggregate.CONFIDENCE:.0%}"
MAX_NAMED = 10  # a verdict sentence lists at most this many items by name (a table lists all)
HELPS_NAMED = 3  # the card verdict names this many items whose restriction helps (or costs), the largest first
REQUIRED_TABLES = ("seats",)  # a report needs at least the seat counters
MANIFEST_KEYS = ("game", "players", "games", "seed", "runs")
# Columns added to the format after the first runs were written: a table may lack them.
OPTIONAL_COLUMNS = {"win_share_sq_sum", "side", "opponent_side", "win_share_cross_sum"}
FIGURES = ("seat_rates", "strategy_seat", "matchups", "side_matchups", "scores")
MAX_MATRIX_SIDES = 12  # more sides than this: no side-against-side matrix (unreadable; a game draws its own)
SECTIONS = ("Verdict", "Run", "Seat fairness", "Player count", "Strategies", "Scores",
            "Game length", "Methods")  # the game's own sections come after Scores
# A cooperative game's report: the Team section replaces Seat fairness and Player count.
COOPERATIVE_SECTIONS = ("Verdict", "Run", "Team", "Strategies", "Scores", "Game length", "Methods")


# --------------------------------------------------------------------------------------------
# entry point


def write_run_report(run_dir, out_dir=None, method: str = "wilson", mix_dir=None, cards_dir=None) -> dict:
    """Write report.md, report.html and figures/*.png for the run in ``run_dir``.

    out_dir: where to write; default ``run_dir`` itself. method: interval of counted rates,
    ``wilson`` or ``clopper-pearson`` (fractional win shares keep their own intervals).
    mix_dir: a run of several strategies rotated over the seats, reported as the Strategies
    section. cards_dir: a run made with ``--card-strength`` under the same rules, strategies
    and sides (checked; ``card_run``), whose card strength the report gives, for a main run
    too large to play again once per card.
    Returns ``{"markdown": Path, "html": Path, "figures": [Path, ...]}``.
    Raises BalanceError when a directory is not a readable run directory (the message names
    the path and the missing or broken file) or ``out_dir`` cannot be written.
    """
    if method not in stats.PROPORTION_METHODS:
        raise BalanceError(f"unknown interval {method!r}; allowed: {', '.join(stats.PROPORTION_METHODS)}")
    run_dir, out_dir = as_path("run_dir", run_dir), as_path("out_dir", out_dir)
    mix_dir, cards_dir = as_path("mix_dir", mix_dir), as_path("cards_dir", cards_dir)
    if run_dir is None:
        raise BalanceError("run_dir=None: give the run directory to report on")
    manifest, tables = load_run(run_dir)
    mix = None
    if mix_dir is not None:
        mix = (*load_run(Path(mix_dir)), Path(mix_dir).name)
        if mix[0]["game"] != manifest["game"]:
            raise BalanceError(f"--mix {str(mix_dir)!r} is a run of {mix[0]['game']!r}, not "
                               f"{manifest['game']!r}")
        _check_same_version(f"--mix {str(mix_dir)!r}", mix[0], manifest)
        if mix[1]["seats"]["strategy"].n_unique() < 2:
            raise BalanceError(f"--mix {str(mix_dir)!r} has one strategy; allowed: a run of several "
                               "strategies (balance simulate ... -s A -s B -s C --rotate)")
        main_runs = {run["players"]: run for run in manifest["runs"]}
        for run in mix[0]["runs"]:  # the strategies must play the game this report describes
            if run["players"] in main_runs:
                _check_same_rules(f"--mix {str(mix_dir)!r}", run, main_runs[run["players"]])
    cards = None
    if cards_dir is not None:
        cards = card_run(Path(cards_dir), run_dir, manifest, tables)
        tables = {**tables, "card_strength": cards.table, **cards.units}
    out_dir = run_dir if out_dir is None else Path(out_dir)
    held = [name for name in FINISHED_OUTPUTS if (out_dir / name).is_file()]
    if out_dir.resolve() != run_dir.resolve() and held:
        # a report.md there would be read as that output's report (another run, a comparison, a tuning)
        raise BalanceError(f"--out {str(out_dir)!r} is another output's directory (it holds {held[0]}); allowed: "
                           f"the run's own ({str(run_dir)!r}, no --out) or a directory of the report's own")
    analysis = analyse(tables, method, manifest, mix, cards)
    # Written beside the run's files, so not swapped in as a whole directory: staged, then
    # each file moved into place (output.publish); a cut leaves the previous report whole.
    staged = out_dir / REPORT_STAGING
    try:
        shutil.rmtree(staged, ignore_errors=True)  # a report cut before it was published
        figures = draw_figures(analysis, tables.get("scores"), staged / "figures")
        sections = build_sections(manifest, analysis, figures)
        title = f"Balance report: {manifest.get('title', manifest['game'])}"
        (staged / "report.md").write_text(to_markdown(title, sections, staged), encoding="utf-8")
        (staged / "report.html").write_text(to_html(title, sections), encoding="utf-8")
        # a figure an earlier report left that this one has no use for (one strategy: no
        # heatmap; another game's report written to the same --out)
        publish(staged, out_dir, [out_dir / "figures" / f"{name}.png" for name in _figure_names() - set(figures)])
    except OSError as e:
        raise BalanceError(f"cannot write the report to {str(out_dir)!r}: {e.strerror or e}") from None
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    return {"markdown": out_dir / "report.md", "html": out_dir / "report.html",
            "figures": [out_dir / path.relative_to(staged) for path in figures.values()]}


def _read_table(path: Path, columns: dict, may_be_empty: bool = False) -> pl.DataFrame:
    """The table at ``path`` with its ``columns``; BalanceError if it is unreadable, lacks one,
    or has no rows where rows are required (a core table always has some: every run plays
    games; a game's own table may be empty, e.g. no combat in a short Defenders game)."""
    try:
        table = pl.read_parquet(path)
    except (OSError, pl.exceptions.PolarsError) as e:
        raise BalanceError(f"{str(path)!r} is not a readable Parquet table: {e}") from None
    lacking = [c for c in columns if c not in table.columns and c not in OPTIONAL_COLUMNS]
    # numbers where numbers belong, text where text does (widths may differ: older runs)
    mistyped = [f"{c} ({table[c].dtype}, not {columns[c]})" for c in columns
                if c in table.columns and table[c].dtype.is_numeric() != columns[c].is_numeric()]
    if lacking or mistyped or (table.is_empty() and not may_be_empty):
        what = (f"lacks columns {', '.join(lacking)}" if lacking else
                f"has columns of the wrong type: {', '.join(mistyped)}" if mistyped else "has no rows")
        raise BalanceError(f"{str(path)!r} {what}; allowed: a table written by `balance simulate`")
    return table


def load_run(run_dir: Path) -> tuple[dict, dict[str, pl.DataFrame]]:
    """The manifest and the tables of a run directory, checked; BalanceError if unusable.

    The tables are those the manifest lists (``tables``); each is checked against the columns
    its game declares when the game is installed here (the core tables always).
    """
    if not run_dir.is_dir() or not (run_dir / "manifest.json").is_file():
        from balance.analysis.study import held_instead

        instead = held_instead(run_dir, "simulate", "a run directory written by `balance simulate ... --out DIR`")
        if instead:
            raise BalanceError(instead)
    if not run_dir.is_dir():
        raise BalanceError(f"run directory {str(run_dir)!r} does not exist or is not a directory")
    path = run_dir / "manifest.json"
    if not path.is_file():
        raise BalanceError(f"{str(run_dir)!r} is not a run directory: missing manifest.json "
                           "(write one with `balance simulate ... --out DIR`)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BalanceError(f"{str(path)!r} is not a readable JSON manifest: {e}") from None
    absent = [key for key in MANIFEST_KEYS if not isinstance(manifest, dict) or key not in manifest]
    if not absent:
        absent = _malformed_manifest(manifest)
    if absent:
        raise BalanceError(f"{str(path)!r} lacks {', '.join(absent)}; allowed: a manifest written by "
                           "`balance simulate`")
    listed = manifest.get("tables")
    # a run written before the manifest listed its tables: every aggregated table in the directory
    names = list(listed) if isinstance(listed, dict) else sorted(
        p.stem for p in run_dir.glob("*.parquet") if p.stem != "games")
    names = list(dict.fromkeys([*REQUIRED_TABLES, *names]))  # a report reads these whatever is listed
    missing = [f"{n}.parquet" for n in names if not (run_dir / f"{n}.parquet").is_file()]
    if missing:
        raise BalanceError(f"{str(run_dir)!r} is not a complete run directory: missing "
                           f"{', '.join(missing)} (write one with `balance simulate ... --out DIR`)")
    _check_written_with(run_dir, listed if isinstance(listed, dict) else {}, names)
    columns = _declared_columns(manifest["game"])
    tables = {name: _read_table(run_dir / f"{name}.parquet", columns.get(name, {}),
                                may_be_empty=name not in schema.CORE_TABLES) for name in names}
    for name, table in tables.items():
        entry = listed.get(name) if isinstance(listed, dict) else None
        rows = entry.get("rows") if isinstance(entry, dict) else None
        if isinstance(rows, int) and table.height != rows:
            raise BalanceError(f"{str(run_dir / f'{name}.parquet')!r} has {table.height:,} rows, its manifest "
                               f"{rows:,}: not the table `balance simulate` wrote with it (copied from another "
                               "run, or edited?)")
    counts, seated = ({run["players"] for run in manifest["runs"]},
                      set(tables["seats"]["players"].unique().to_list()))
    if counts != seated:  # tables of another run copied in: every rate would be of the wrong games
        raise BalanceError(f"{str(run_dir / 'seats.parquet')!r} counts games at {sorted(seated)} players, its "
                           f"manifest at {sorted(counts)}; allowed: the tables `balance simulate` wrote with it")
    return manifest, tables


def _check_written_with(run_dir: Path, listed: dict, names: list[str]) -> None:
    """Each table whose manifest entry keeps its SHA-256 (runs written since 2026-12) is the
    file written with that manifest: a table of the same shape copied from another run (another
    seed) reads without error, and every rate of the report would be of other games."""
    from balance.core.output import file_digest

    for name in names:
        entry = listed.get(name)
        digest = entry.get("sha256") if isinstance(entry, dict) else None
        try:
            written = file_digest(run_dir / f"{name}.parquet") if isinstance(digest, str) else None
        except OSError as e:
            raise BalanceError(f"{str(run_dir / f'{name}.parquet')!r} cannot be read: {e.strerror or e}") from None
        if written is not None and written != digest:
            raise BalanceError(f"{str(run_dir / f'{name}.parquet')!r} is not the table `balance simulate` wrote "
                               "with this manifest (its SHA-256 differs: copied from another run, or edited?); "
                               "allowed: the run's own tables (simulate again to replace them)")


def _malformed_manifest(manifest: dict) -> list[str]:
    """What a manifest with every key lacks in shape (an edited or foreign file): the parts the
    report reads, each of the type `balance simulate` writes."""
    def whole(x) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    def seating(s) -> bool:  # one block of games and its strategy per seat
        return (isinstance(s, dict) and whole(s.get("first_game")) and whole(s.get("games"))
                and isinstance(s.get("strategies"), list) and s["strategies"]
                and all(isinstance(q, dict) and isinstance(q.get("label"), str) and isinstance(q.get("name"), str)
                        for q in s["strategies"]))

    runs, cards = manifest["runs"], manifest.get("card_strength")
    wrong = [f"{key} (a {what})" for key, what, ok in (
        ("game", "game id", isinstance(manifest["game"], str)),
        ("seed", "whole number", whole(manifest["seed"])),
        ("games", "whole number", whole(manifest["games"])),
        ("players", "list of player counts", isinstance(manifest["players"], list)
         and all(whole(n) for n in manifest["players"])),
        ("card_strength", "table naming its mode 'when', or null", cards is None
         or (isinstance(cards, dict) and isinstance(cards.get("when"), str)))) if not ok]
    if not (isinstance(runs, list) and runs and all(
            isinstance(run, dict) and {"players", "rules", "seatings"} <= run.keys()
            and whole(run["players"]) and isinstance(run["rules"], dict)
            and isinstance(run["seatings"], list) and run["seatings"] and all(map(seating, run["seatings"]))
            for run in runs)):
        wrong.append("runs[].players/rules/seatings (a list of runs, each with a player count, its "
                     "rules and its seatings: blocks of games, each with a labelled strategy per seat)")
    return wrong


def _declared_columns(game: str) -> dict[str, dict]:
    """Table name -> declared columns: the core tables, and the game's when it is installed."""
    from balance.core.api import table_specs
    from balance.core.registry import get_game

    core = {name: columns for name, (columns, _, _) in schema.CORE_TABLES.items()}
    try:
        return {**core, **{name: columns for name, (_, columns, _) in table_specs(get_game(game)).items()}}
    except BalanceError:
        return core


@dataclass
class CardRun:
    """Card strength measured in a separate run (``balance report --card-strength DIR``)."""

    name: str  # its directory's name
    manifest: dict
    table: pl.DataFrame  # its card_strength.parquet
    units: dict = field(default_factory=dict)  # its card_strength_units table, where it wrote one


def card_run(cards_dir: Path, run_dir: Path, manifest: dict, tables: dict) -> CardRun:
    """The separate card-strength run, checked against the main run: the same game, a card
    strength table, a player count the main run has (its others are left out), and at each
    such count the same rules, strategies and sides, so its cards are those of the game the
    report describes. BalanceError naming the first difference otherwise."""
    where = f"--card-strength {str(cards_dir)!r}"
    cards_manifest, cards_tables = load_run(cards_dir)
    if cards_manifest["game"] != manifest["game"]:
        raise BalanceError(f"{where} is a run of {cards_manifest['game']!r}, not {manifest['game']!r}")
    _check_same_version(where, cards_manifest, manifest)
    if "card_strength" not in cards_tables:
        raise BalanceError(f"{where} measured no card strength; allowed: a run made with "
                           "`balance simulate ... --card-strength`")
    if "card_strength" in tables:
        raise BalanceError(f"{str(run_dir)!r} measured card strength itself; give --card-strength "
                           "only for a run without it")
    main_runs = {run["players"]: run for run in manifest["runs"]}
    shared = [run for run in cards_manifest["runs"] if run["players"] in main_runs]
    if not shared:
        raise BalanceError(f"{where} has {and_list(run['players'] for run in cards_manifest['runs'])} players; "
                           f"allowed: a run at one of the main run's player counts ({and_list(sorted(main_runs))})")
    # a card-strength run of more counts serves the main run's (a designer's 3,4,5 run for a run at 5)
    cards_manifest = {**cards_manifest, "runs": shared}
    counts = [run["players"] for run in shared]
    for run in shared:
        n = run["players"]
        _check_same_rules(where, run, main_runs[n])
        held, main_held = _strategies_held(run), _strategies_held(main_runs[n])
        if held.keys() != main_held.keys():
            raise BalanceError(f"{where} has other strategies at {n} players ({and_list(sorted(held.values()))} "
                               f"against {and_list(sorted(main_held.values()))}); allowed: the main run's")
    for key in ("sides", "rotate"):
        if cards_manifest.get(key) != manifest.get(key):
            raise BalanceError(f"{where} has {key} {cards_manifest.get(key)!r} where the main run has "
                               f"{manifest.get(key)!r}; allowed: the same")
    from balance.core.card_trials import UNITS_TABLE

    def used(table: pl.DataFrame) -> pl.DataFrame:  # its rows at the main run's counts
        return table.filter(pl.col("players").is_in(counts))

    return CardRun(cards_dir.name, cards_manifest, used(cards_tables["card_strength"]),
                   {UNITS_TABLE: used(cards_tables[UNITS_TABLE])} if UNITS_TABLE in cards_tables else {})


def _check_same_version(where: str, other: dict, manifest: dict) -> None:
    """A separate run (its manifest) was played by the engine of the main run: the same rules
    version, which a change to the games a seed plays bumps."""
    if other.get("rules_version") != manifest.get("rules_version"):
        raise BalanceError(f"{where} was played under rules version {other.get('rules_version')!r}, the main "
                           f"run under {manifest.get('rules_version')!r}; allowed: runs of one version (the "
                           "games changed between them: simulate the older again)")


def _check_same_rules(where: str, run: dict, main_run: dict) -> None:
    """A separate run's rules at a player count (a manifest run) are the main run's there, else
    one line naming the keys that differ."""
    differ = [k for k in dict.fromkeys([*run["rules"], *main_run["rules"]])
              if run["rules"].get(k) != main_run["rules"].get(k)]
    if differ:
        raise BalanceError(f"{where} has other rules at {run['players']} players ({', '.join(differ)}); "
                           "allowed: the main run's rules")


def _strategies_held(run: dict) -> dict[str, str]:
    """The strategies a player count's seats held: their name and every parameter -> label."""
    return {json.dumps([s["name"], s.get("params")], sort_keys=True): s["label"]
            for block in run["seatings"] for s in block["strategies"]}


# --------------------------------------------------------------------------------------------
# numbers


@dataclass
class Strategies:
    """The strategy comparison: from the run itself (several strategies) or a --mix run."""

    source: str  # "run" or the mix run's directory name
    manifest: dict
    rates: pl.DataFrame  # per (players, strategy), pooled over seats
    by_seat: pl.DataFrame  # per (players, strategy, seat)
    matchups: pl.DataFrame | None  # head to head (runs with pairs.parquet)
    seat_share: pl.DataFrame  # per (players, strategy): share of the seats it held


@dataclass
class Team:
    """A cooperative game's result: the team wins or loses together."""

    rates: pl.DataFrame  # per players: games, won, rate, lo, hi
    across_counts: dict | None  # chi-square of equal team win rates over the player counts
    sides: pl.DataFrame | None  # per (players, side): the team's win rate with it (descriptive)
    teams: pl.DataFrame | None = None  # per (players, team): win rate with CI (teams.parquet)
    composition: pl.DataFrame | None = None  # per players: does the team matter (sides drawn)


@dataclass
class Analysis:
    """Every frame the report shows, computed once (each a few rows per player count)."""

    seat_rates: pl.DataFrame
    fairness: pl.DataFrame | None  # None for a cooperative game (one result for every seat)
    player_counts: pl.DataFrame | None  # None for a cooperative game
    ties_across_counts: dict | None  # chi-square of equal tie rates over the player counts
    score_summary: pl.DataFrame | None  # None: the game has no score
    constant_scores: dict  # players -> the one score every seat always had, if so
    outcomes: pl.DataFrame | None  # per (players, outcome): share and length (runs since issue 10)
    strategies: Strategies | None
    run_strategies: list[str]  # labels of the run's own strategies
    deterministic_alike: str | None  # the one deterministic strategy of every seat, if so
    observed_variance: bool  # seats kept win_share_sq_sum: normal intervals, not Wilson
    clustered_scores: bool  # game_totals present: the mean score's interval is per game
    method: str = "wilson"  # interval of counted rates
    game: object = None  # the game's own analysis (its report part's analyse()), if any
    game_report: object = None  # the game's report part (balance.core.game.OPTIONAL_PARTS), if any
    length_unit: str = "turns"  # what a game's length counts (GameInfo.length)
    team: Team | None = None  # a cooperative game's team result (no seat tests then)
    sides: pl.DataFrame | None = None  # a competitive game with sides: win rate per side
    side_matchups: pl.DataFrame | None = None  # ... and side against side (pairs by side)
    cards: CardRun | None = None  # card strength from a separate run (--card-strength DIR)
    seat_edges: pl.DataFrame | None = None  # each seat against fair, Holm over the run's seats


def analyse(tables: dict[str, pl.DataFrame], method: str = "wilson", manifest: dict | None = None,
            mix: tuple[dict, dict, str] | None = None, cards: CardRun | None = None) -> Analysis:
    """Every frame of the report. mix: (manifest, tables, name) of a strategy-mix run; cards:
    the separate card-strength run whose table ``tables`` already holds (``card_run``)."""
    manifest = manifest or {"runs": []}
    seats = tables["seats"]
    game_report, info = _game_report(manifest.get("game"))
    cooperative = info is not None and info.cooperative
    has_sides = "side" in seats.columns and bool((seats["side"] != "").any())
    team = _team(tables, seats, method, has_sides, manifest) if cooperative else None
    # A cooperative game's seats share one result: there is no seat to favour or test.
    fairness = None if cooperative else aggregate.seat_fairness(seats, POWER)
    # ties and the per-count score table describe competitive games
    counts = None if cooperative else player_counts(seats, fairness, tables.get("game_totals"))
    labels = seats["strategy"].unique(maintain_order=True).to_list()
    strategies = None
    if mix is not None:
        strategies = _strategies(mix[2], mix[0], mix[1], method)
    elif len(labels) > 1:
        strategies = _strategies("run", manifest, tables, method)
    return Analysis(
        seat_rates=aggregate.seat_rates(seats, method),
        fairness=fairness,
        seat_edges=aggregate.seat_edges(seats, fairness) if fairness is not None else None,
        player_counts=counts,
        ties_across_counts=ties_across_counts(counts) if counts is not None else None,
        score_summary=aggregate.score_summary(tables["scores"]) if "scores" in tables else None,
        constant_scores=constant_scores(tables["scores"]) if "scores" in tables else {},
        outcomes=aggregate.outcome_shares(tables["outcomes"], method) if "outcomes" in tables else None,
        strategies=strategies,
        run_strategies=labels,
        deterministic_alike=deterministic_alike(manifest),
        observed_variance="win_share_sq_sum" in seats.columns,
        clustered_scores="game_totals" in tables,
        method=method,
        game=game_report.analyse(tables, manifest, method) if game_report is not None else None,
        game_report=game_report,
        length_unit=info.length if info is not None else "turns",
        team=team,
        sides=aggregate.side_rates(seats, method) if has_sides and not cooperative else None,
        side_matchups=(aggregate.matchups(tables["pairs"], method, by="side")
                       if has_sides and not cooperative and "pairs" in tables else None),
        cards=cards,
    )


def _team(tables: dict, seats: pl.DataFrame, method: str, has_sides: bool, manifest: dict) -> Team:
    if "outcomes" not in tables:
        raise BalanceError("this cooperative run has no outcomes.parquet; run `balance simulate` again")
    rates = aggregate.team_rates(tables["outcomes"], method)
    teams = composition = None
    if "teams" in tables:
        teams = aggregate.rate(tables["teams"].sort("players", "team"), "won", "games", "rate", method)
        if manifest.get("sides") == "drawn":  # teams drawn at random: their differences are causal
            composition = _composition(teams)
    return Team(rates, stats.rate_homogeneity(rates["won"].to_numpy(), rates["games"].to_numpy()),
                aggregate.side_rates(seats, method) if has_sides else None, teams, composition)


def _composition(teams: pl.DataFrame) -> pl.DataFrame | None:
    """Per player count with two or more teams: the chi-square test of equal win rates over
    the teams, Holm over the counts. The run drew every game's team from a stream of its own,
    so which team played is independent of everything else in the game: a difference between
    teams is caused by the team (a randomised experiment), not by the situations it met."""
    rows = []
    for (n,), g in teams.group_by("players", maintain_order=True):
        test = stats.rate_homogeneity(g["won"].to_numpy(), g["games"].to_numpy()) if g.height > 1 else None
        if test is not None:
            rows.append({"players": n, "teams": g.height, **test})
    if not rows:
        return None
    out = pl.DataFrame(rows)
    return out.with_columns(p_adjusted=pl.Series(stats.holm(out["p_value"].to_numpy())))


def _figure_names() -> set[str]:
    """The name of every figure a report writes, of any game installed here (its report part's
    FIGURES): the figures/ files a report may remove when it has no use for them."""
    from balance.core.registry import game_ids, get_game

    names = set(FIGURES)
    for game in game_ids():
        try:
            names |= set(getattr(get_game(game).optional_part("report"), "FIGURES", ()))
        except BalanceError:  # a malformed plugin: its own report says so
            continue
    return names


def _game_report(game: str | None):
    """(the game's report part or None, its GameInfo or None when not installed here)."""
    from balance.core.registry import get_game

    try:
        info = get_game(game)
    except BalanceError:
        return None, None
    return info.optional_part("report"), info  # a malformed report part: its BalanceError


def _strategies(source: str, manifest: dict, tables: dict, method: str) -> Strategies:
    seats = tables["seats"]
    held = (seats.group_by("players", "strategy").agg(pl.col("games").sum())
            .with_columns(share=pl.col("games") / pl.col("games").sum().over("players"))
            .sort("players", "strategy"))
    game = _declared(manifest["game"])
    return Strategies(source, manifest, strategy_rates(seats, tables.get("pairs"), bool(game and game.cooperative)),
                      aggregate.strategy_seat(seats, method),
                      aggregate.matchups(tables["pairs"], method) if "pairs" in tables else None,
                      held)


def _share_ci(frame: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rate, lo, hi) of win_share / games, with aggregate.py's choice of interval."""
    share = frame["win_share"].to_numpy().astype(float)
    games = frame["games"].to_numpy().astype(float)
    if "win_share_sq_sum" in frame.columns:
        return stats.share_ci(share, frame["win_share_sq_sum"].to_numpy().astype(float), games,
                              aggregate.CONFIDENCE)
    lo, hi = stats.wilson(share, games, aggregate.CONFIDENCE)
    return share / games, lo, hi


def strategy_rates(seats: pl.DataFrame, pairs: pl.DataFrame | None = None, cooperative: bool = False) -> pl.DataFrame:
    """Per (players, strategy), pooled over seats: win rate per seat-game with CI, mean score.

    A strategy holding k > 1 seats of one game has k seat-games there, and their win shares
    are not independent: usually negatively correlated (they cannot both win outright), but two
    copies of a deterministic strategy that tie move together (they can end level in every
    game they share). With ``pairs`` holding ``win_share_cross_sum`` the games are
    the clusters (``_clustered_se``: ``se``, and the interval from it); in a cooperative game
    every seat has the team's result, so its k seats move as one (no pairs table needed);
    otherwise (a competitive run written before the column) seat-games are taken as independent
    (``se`` null).
    """
    sums = ["games", "win_share", "score_sum",
            *(["win_share_sq_sum"] if "win_share_sq_sum" in seats.columns else [])]
    pooled = seats.group_by("players", "strategy").agg(pl.col(sums).sum()).sort("players", "strategy")
    rate, lo, hi = _share_ci(pooled)
    from scipy.stats import norm

    se = _clustered_se(pooled, pairs, seats, cooperative)
    z = float(norm.ppf(0.5 + aggregate.CONFIDENCE / 2))
    held = ~np.isnan(se)  # a strategy holding several seats of a game: its interval over games
    lo = np.where(held, np.clip(rate - z * np.nan_to_num(se), 0.0, 1.0), lo)
    hi = np.where(held, np.clip(rate + z * np.nan_to_num(se), 0.0, 1.0), hi)
    # fair as the seats' (aggregate.fair_rate): a game the turn cap stopped hands out no win, so
    # equal strategies each win 1/n of the finished games, not 1/n of every game
    return pooled.with_columns(rate=pl.Series(rate), lo=pl.Series(lo), hi=pl.Series(hi),
                               se=pl.Series(se, nan_to_null=True, dtype=pl.Float64), fair=aggregate.fair_rate(),
                               mean_score=pl.col("score_sum") / pl.col("games"))


def _clustered_se(pooled: pl.DataFrame, pairs: pl.DataFrame | None, seats: pl.DataFrame,
                  cooperative: bool) -> np.ndarray:
    """float[rows of ``pooled``]: the standard error of each strategy's rate W / N with the
    games as clusters, NaN where the strategy holds one seat a game (then seat-games are games)
    or the tables lack what it needs. A game's total T is the sum of the strategy's k seats'
    shares; sum over games of T^2 is the seats' sum of squares plus the ordered pairs' cross
    sums of two seats both held by it (``pairs``' win_share_cross_sum), and k - 1 is those
    pairs' games over N (k seats a game in every game: the mix rotates one seat list). Then
    var = (sum T^2 - 2 r k W + r^2 k N) / N^2 times G / (G - 1), G = N / k games. In a
    cooperative game T = k x (the team's result, every seat's), so sum T^2 = k times the seats'
    sum of squares, k = N over the count's games."""
    out = np.full(pooled.height, np.nan)
    if cooperative and "win_share_sq_sum" in pooled.columns:
        counts = seats.group_by("players").agg(pl.col("games").sum().alias("seat_games"))
        joined = pooled.join(counts, on="players", how="left")
        for i, r in enumerate(each_row(joined)):
            k = r["games"] * r["players"] / r["seat_games"]  # the strategy's seats a game
            if k > 1 + 1e-9 and r["games"] / k >= 2:
                out[i] = _game_se(float(r["games"]), float(r["win_share"]), k, k * r["win_share_sq_sum"])
        return out
    if pairs is None or "win_share_cross_sum" not in pairs.columns or "win_share_sq_sum" not in pooled.columns:
        return out
    own = (pairs.filter(pl.col("strategy") == pl.col("opponent_strategy"))
           .group_by("players", "strategy")
           .agg(pl.col("games").sum().alias("pair_games"), pl.col("win_share_cross_sum").sum()))
    joined = pooled.join(own.with_columns(pl.col("players").cast(pooled["players"].dtype)),
                         on=["players", "strategy"], how="left")
    for i, r in enumerate(each_row(joined)):
        if not r["pair_games"] or not r["games"]:
            continue
        n, w = float(r["games"]), float(r["win_share"])
        k = 1.0 + r["pair_games"] / n  # seats a game
        games = n / k
        if games < 2:
            continue
        out[i] = _game_se(n, w, k, r["win_share_sq_sum"] + r["win_share_cross_sum"])
    return out


def _game_se(n: float, w: float, k: float, total_sq: float) -> float:
    """The rate w / n's standard error over G = n / k games of k seat-games each, from the sum
    over games of the squared per-game total (``total_sq``)."""
    games, rate = n / k, w / n
    variance = max(total_sq - 2 * rate * k * w + rate * rate * k * n, 0.0) / n**2 * games / (games - 1)
    return math.sqrt(variance)


def player_counts(seats: pl.DataFrame, fairness: pl.DataFrame,
                  game_totals: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per player count: games, mean score (CI), score sd and the share of games with a tie.

    Mean score: with ``game_totals`` (the seats' scores summed per game, T) the interval is
    the normal one for the per-game mean T/n, so the seats of one game, whose scores are
    correlated, count as one cluster; without it (older runs), seat-games are treated as
    independent. Every game hands out exactly one win (seat_fairness checks that the shares
    sum to the game count), so the games without an outright winner are the tied ones.
    """
    pooled = (seats.group_by("players")
              .agg(pl.col("games", "wins_outright", "wins_shared", "score_sum", "score_sq_sum").sum())
              .rename({"games": "seat_games"}).sort("players")
              .join(fairness.select(pl.col("players").cast(seats["players"].dtype), "games"), on="players"))
    n = pooled["seat_games"].to_numpy().astype(float)
    mean = pooled["score_sum"].to_numpy() / n
    if game_totals is not None:
        totals = game_totals.group_by("players").agg(pl.col("games", "score_total_sum", "score_total_sq_sum").sum())
        totals = pooled.select("players").join(totals.with_columns(pl.col("players").cast(seats["players"].dtype)),
                                               on="players", how="left")
        seats_per_game = pooled["players"].to_numpy().astype(float)
        _, mean_lo, mean_hi = stats.mean_ci(totals["score_total_sum"].to_numpy() / seats_per_game,
                                            totals["score_total_sq_sum"].to_numpy() / seats_per_game**2,
                                            totals["games"].to_numpy().astype(float), aggregate.CONFIDENCE)
    else:
        _, mean_lo, mean_hi = stats.mean_ci(pooled["score_sum"].to_numpy().astype(float),
                                            pooled["score_sq_sum"].to_numpy().astype(float), n,
                                            aggregate.CONFIDENCE)
    sd = np.sqrt(np.maximum(pooled["score_sq_sum"].to_numpy() - n * mean**2, 0.0) / (n - 1))
    tied = (pooled["games"] - pooled["wins_outright"]).to_numpy().astype(float)
    tie_lo, tie_hi = stats.wilson(tied, pooled["games"].to_numpy().astype(float), aggregate.CONFIDENCE)
    return pooled.with_columns(
        mean_score=pl.Series(mean), mean_lo=pl.Series(mean_lo), mean_hi=pl.Series(mean_hi),
        score_sd=pl.Series(sd), tied_games=pl.Series(tied), tie_rate=pl.Series(tied) / pl.col("games"),
        tie_lo=pl.Series(tie_lo), tie_hi=pl.Series(tie_hi),
        winners_per_tie=pl.col("wins_shared") / pl.Series(tied),
    )


def ties_across_counts(counts: pl.DataFrame) -> dict | None:
    """Do the player counts differ in how often a game's win is shared? Pearson chi-square of
    homogeneity on the (tied, not tied) x player-count table of ``player_counts``; None with
    one count, or when no count has a tie (or every game is tied) and there is nothing to
    compare."""
    return stats.rate_homogeneity(counts["tied_games"].to_numpy(), counts["games"].to_numpy())


def constant_scores(scores: pl.DataFrame) -> dict:
    """players -> S when every seat scored S in every game of that player count."""
    out = {}
    for (players,), g in scores.group_by("players", maintain_order=True):
        values = g.filter(pl.col("count") > 0)["score"].unique()
        if values.len() == 1:
            out[players] = int(values[0])
    return out


# --------------------------------------------------------------------------------------------
# figures


def draw_figures(a: Analysis, scores: pl.DataFrame, fig_dir: Path) -> dict[str, Path]:
    """Draw the report's figures into ``fig_dir``; returns name -> path in report order.

    (write_run_report removes the figures an earlier report drew that this one has no use
    for, so the directory always matches the report.)
    """
    fig_dir.mkdir(parents=True, exist_ok=True)
    drawn = {}
    if a.team is None:  # a cooperative game's seats share the team's result: no seat figure
        drawn["seat_rates"] = plots.seat_rates(a.seat_rates, fig_dir / "seat_rates.png")
    if a.strategies is not None:
        drawn["strategy_seat"] = plots.strategy_seat_heatmap(a.strategies.by_seat, fig_dir / "strategy_seat.png")
        if a.strategies.matchups is not None:
            drawn["matchups"] = plots.matchups(a.strategies.matchups, fig_dir / "matchups.png")
    if _side_matrix_shown(a):
        drawn["side_matchups"] = plots.matchups(a.side_matchups, fig_dir / "side_matchups.png",
                                                title="row side beats column side")
    if scores is not None:
        drawn["scores"] = plots.score_distributions(scores, fig_dir / "scores.png")
    if a.game is not None:
        drawn.update(a.game_report.figures(a.game, fig_dir))
    return drawn


# --------------------------------------------------------------------------------------------
# sections


def build_sections(manifest: dict, a: Analysis, figures: dict[str, Path]) -> list[Section]:
    """The report's sections in reading order (Strategies only when there is a comparison)."""
    if a.team is not None:  # cooperative: the team's result replaces the seat sections
        sections = [verdict_section(manifest, a), run_section(manifest, a.strategies, a.cards),
                    team_section(a)]
    else:
        sections = [
            verdict_section(manifest, a),
            run_section(manifest, a.strategies, a.cards),
            seat_section(a, figures, _seat_kept(manifest, a), _sides_held(manifest)),
            player_count_section(a),
            *([side_section(a, figures)] if a.sides is not None else []),
        ]
    if a.strategies is not None:
        sections.append(strategy_section(a.strategies, figures))
    if a.score_summary is not None:
        sections.append(score_section(a, figures))
    if a.game is not None:
        sections += a.game_report.sections(a.game, figures)
    if a.outcomes is not None:
        sections.append(length_section(a))
    sections.append(methods_section(a))
    return sections


def _seats_comparable(manifest: dict, a: Analysis) -> bool:
    """Seats differ only by position when one strategy and one side (or drawn sides) fill every
    seat, or --rotate was used. Otherwise a seat gap is a strategy or side gap as well."""
    return _seat_kept(manifest, a) is None


def _seat_kept(manifest: dict, a: Analysis) -> str | None:
    """What each seat kept of its own besides its position, in words ('strategy', the game's
    side noun, or both joined by 'and'), so that a seat gap is partly that: None when the seats
    differ by position alone (--rotate, or one strategy and drawn or equal sides)."""
    if manifest.get("rotate"):
        return None
    sides = manifest.get("sides")
    kept = ["strategy"] if len(a.run_strategies) > 1 else []
    if isinstance(sides, list) and len(set(sides)) > 1:  # --side fixed per seat
        game = _declared(manifest["game"])
        kept.append(game.side if game is not None and game.side else "side")
    return " and ".join(kept) or None


def each_row(frame: pl.DataFrame):
    return frame.iter_rows(named=True)


def apart(rows: pl.DataFrame, i: int, lo: str = "lo", hi: str = "hi", top: bool = True) -> bool:
    """Whether row ``i``'s interval lies wholly above (``top``) or below every other row's: the
    test behind a "most"/"best" or "least"/"worst" that names one of several estimates. Two
    95% normal (Wald) intervals that do not overlap put the estimates at least 1.96 (se1 + se2)
    apart, at least 1.96 standard errors of their difference whatever their correlation, so
    each comparison is a test at 5% or less (about so for Wilson intervals); all must pass,
    and the claim is false only if some other item truly is ahead, so picking the item after
    looking does not spoil it. Rows without an interval are not compared; row ``i`` without
    one, or with no other row to compare, is not apart."""
    if rows[lo][i] is None or rows[hi][i] is None:
        return False
    other = rows.with_row_index("_i").filter((pl.col("_i") != i) & pl.col(lo).is_not_null() & pl.col(hi).is_not_null())
    if not other.height:  # alone it is "most" of nothing compared
        return rows.height == 1
    return bool(rows[lo][i] > other[hi].max()) if top else bool(rows[hi][i] < other[lo].min())


def verdict_section(manifest: dict, a: Analysis) -> Section:
    """Plain-words answers first, each decided by the test named in it."""
    if a.team is not None:
        return _team_verdict(manifest, a)
    # what played the games: the numbers are the game's under that play (a designer found a
    # side ranking under the tuned strategy apart from the same ranking under another)
    label = a.run_strategies[0]
    short = brief(label, a.run_strategies)  # a tuned label is long: spelt out under Run
    played = ((" Every seat played ", Code(short), " (in full under Run)" if short != label else "",
               ": other play may move these numbers (", Code(f"balance ladder {manifest['game']}"),
               " puts strategies side by side).") if len(a.run_strategies) == 1 else ())
    blocks = [Para((Strong("Seats."), f" Seats are numbered from 0: {_seat_order(manifest)}. Gap: the best "
                    "seat's win rate minus the worst seat's; edge: one seat's win rate minus the fair 1/n. "
                    "Every interval on this screen is a 95% interval for its own number, not adjusted for "
                    "the others (the gap's holds for every pair of seats at once); what is found is decided "
                    "by the tests' adjusted p-values.", *played),)]
    # the cautions come before the seat lines they qualify: a seat edge that is a strategy's or a
    # side's must not be read first as the rules'
    if len(a.run_strategies) > 1:
        blocks.append(Para((Strong("Caution:"), " the seats were played by a mix of strategies (",
                            *code_list(a.run_strategies), "), so the seat numbers below and the game's own "
                            "describe that mix, not play at one level. For headline numbers, run one "
                            "strategy in every seat and give the mix with --mix.")))
    blocks += [Para(line) for line in untuned_cautions(untuned_counts(manifest), a.run_strategies)]
    kept = _seat_kept(manifest, a)
    if kept:
        words = (f"ach seat kept its own {kept} (no --rotate), so the seat differences below include {kept} "
                 f"differences{_sides_held(manifest)}.")
        blocks.append(Para((Strong("Caution:"), " e" + words) if len(a.run_strategies) == 1 else ("E" + words,)))
    blocks += [Bullets([seat_line(f, a) for f in each_row(a.fairness)])]
    blocks += [Para((Strong("Player count."),)), Bullets(player_count_lines(a, _declared(manifest["game"])))]
    return Section("Verdict", blocks + _verdict_tail(manifest, a))


def _verdict_tail(manifest: dict, a: Analysis) -> list:
    """What every verdict ends with: the turn cap, the game's own lines, the strategies, and
    the rule change to try next."""
    blocks = []
    capped = capped_line(a)
    if capped is not None:
        blocks += [Para((Strong("Turn cap."),)), Bullets([capped])]
    game_blocks = a.game_report.verdict(a.game) if a.game is not None else []
    if a.cards is not None:  # said under the game's Cards heading (its lines are that run's), else after them
        source = Para(("Card strength is from the separate run ", Code(a.cards.name), ": ", _card_run_games(a.cards),
                       ", with the same rules, strategies and sides as this run (checked)."))
        heading = next((i for i, b in enumerate(game_blocks) if isinstance(b, Para) and b.parts
                        and b.parts[0] == Strong("Cards")), len(game_blocks) - 1)
        game_blocks.insert(heading + 1, source)
    blocks += game_blocks
    if a.strategies is not None:
        blocks.append(Para(_strategy_heading(a.strategies)))
        if a.strategies.source != "run":  # a --mix run's tuned strategies the verdict has not named yet
            named = untuned_counts(manifest)
            mixed = {k: v for k, v in untuned_counts(a.strategies.manifest).items() if k not in named}
            blocks += [Para(line) for line in untuned_cautions(mixed, _labels(a.strategies))]
        blocks.append(Bullets(strategy_lines(a.strategies)))
    return blocks + [Para((Strong("What to try next."),)), Bullets(try_next(manifest, a))]


def _team_verdict(manifest: dict, a: Analysis) -> Section:
    """A cooperative game's verdict: the team's win rate per player count and whether it
    differs between counts (chi-square of homogeneity); no seat lines (one shared result)."""
    lines = [(f"{players_phrase(r['players'])}: the team wins ",
              Strong(rate_ci(r["rate"], r["lo"], r["hi"])), f" of {counted(r['games'], 'game')}.")
             for r in each_row(a.team.rates)]
    if a.team.across_counts is not None:
        lines.append(team_counts_line(a.team.across_counts))
    # the team's rate is its policy's as much as the game's: a designer read a default policy's
    # 0.10% as the game's difficulty, where a tuned one wins 4%
    played = (" played by ", *code_list(a.run_strategies), ": a stronger policy wins more, so these rates "
              "measure the game under that play")
    blocks = [Para((Strong("Team"), " (a cooperative game: every seat wins or loses with the team; "
                    "95% intervals;", *played, ")."),),
              *[Para(line) for line in untuned_cautions(untuned_counts(manifest), a.run_strategies)],
              Bullets(lines)]
    if a.team.composition is not None:
        blocks += [Para((Strong("Team composition"), " (the sides of every game were drawn at random, "
                         "so a difference between teams is the teams' doing)."),),
                   Bullets([_composition_line(r, a.team.teams) for r in each_row(a.team.composition)])]
    return Section("Verdict", blocks + _verdict_tail(manifest, a))


def team_counts_line(across: dict) -> tuple:
    """Whether the team's win rate differs between player counts, in words: ``across`` is the
    homogeneity test of the counts' rates (``stats.rate_homogeneity``)."""
    verdict = "differs between player counts" if across["p_value"] < ALPHA else "does not differ detectably"
    name, why = _homogeneity(across, "chi-square test", "wins")
    return ("The team's win rate ", Strong(verdict), f" ({name} of equal rates{why}, {p_phrase(across['p_value'])}).")


# The homogeneity tests' fallback in words (stats.rate_homogeneity), for the methods texts.
PERMUTED = (f" When an expected count is under {stats.MIN_EXPECTED:.0f}, where the chi-square approximation "
            f"fails, the p-value comes from {stats.PERMUTATIONS:,} random permutations of the "
            "outcomes over the groups instead (an exact conditional test).")


def _homogeneity(test: dict, name: str, events: str) -> tuple[str, str]:
    """The homogeneity test that decided (``stats.rate_homogeneity``'s method) in words:
    (``name``, "") for the chi-square test, else ("permutation test", why)."""
    if test.get("method", "chi-square") == "chi-square":
        return name, ""
    return "permutation test", f", too few {events} for chi-square"


def _permuted(test: dict) -> str:
    """', the p-value from 100,000 permutations (too few for the chi-square approximation)'
    when ``stats.rate_homogeneity`` took it from permutations, else nothing."""
    return "" if test.get("method", "chi-square") == "chi-square" else (
        f", the p-value from {stats.PERMUTATIONS:,} permutations (too few for the chi-square approximation)")


def _composition_line(r: dict, teams: pl.DataFrame) -> tuple:
    """One player count's verdict on team composition: chi-square over its teams, Holm over
    the counts; the best and worst team with their intervals."""
    g = teams.filter(pl.col("players") == r["players"])
    high, low = int(g["rate"].arg_max()), int(g["rate"].arg_min())
    best, worst = g.row(high, named=True), g.row(low, named=True)
    found = r["p_adjusted"] < ALPHA
    name, why = _homogeneity(r, "chi-square", "wins")
    # "best"/"worst" only for a team whose interval is apart from every other team's
    best_word = "best " if found and apart(g, high, "rate_lo", "rate_hi") else "highest rate "
    worst_word = "worst " if found and apart(g, low, "rate_lo", "rate_hi", top=False) else "lowest rate "
    note = _apart_note(best_word, worst_word, "team") if found else ""  # not found: the line says so
    won, games = int(g["won"].sum()), int(g["games"].sum())  # how much the test had to go on, said
    return (f"{players_phrase(r['players'])}: ", Strong("the team matters" if found else
                                                "no difference between teams found"),
            f" ({name} of equal win rates over {r['teams']} teams, {counted(won, 'win')} in "
            f"{counted(games, 'game')}{why}, Holm-adjusted "
            f"{p_phrase(r['p_adjusted'])}); {best_word}", Code(best["team"]),
            f" {rate_ci(best['rate'], best['rate_lo'], best['rate_hi'])}, {worst_word}", Code(worst["team"]),
            f" {rate_ci(worst['rate'], worst['rate_lo'], worst['rate_hi'])}{note}.")


def _apart_note(best_word: str, worst_word: str, item: str) -> str:
    """Why a line says 'highest'/'lowest rate' where it could have said 'best'/'worst'."""
    if best_word.startswith("highest") or worst_word.startswith("lowest"):
        return f" (a highest or lowest rate whose interval overlaps another {item}'s is an estimate, not a ranking)"
    return ""


def team_section(a: Analysis) -> Section:
    """The team's win rate by player count and, for a game with sides, with each side."""
    table = [[str(r["players"]), count(r["games"]), count(r["won"]), pct(r["rate"]), ci(r["lo"], r["hi"])]
             for r in each_row(a.team.rates)]
    blocks = [Para(("Every seat of a cooperative game gets the team's result, so there is no seat "
                    f"advantage to test; the team's win rate ({aggregate.interval_name(a.method)} interval) is "
                    "the measure.",)),
              Table(["players", "games", "won", "team win rate", f"{LEVEL} CI"], table, left=1)]
    if a.team.sides is not None:
        blocks += [Para(("With each side in the team (seat-games that played it; description: "
                         "the team's other sides varied with it, so this ranks no side — fix the "
                         "sides with --side and compare runs for a causal answer):",)),
                   _side_table(a.team.sides, "team win rate")]
    if a.team.teams is not None:
        rows = [[str(r["players"]), Code(r["team"]), count(r["games"]), count(r["won"]), pct(r["rate"]),
                 ci(r["rate_lo"], r["rate_hi"])] for r in each_row(a.team.teams)]
        blocks += [Para(("By team (its set of sides):",)),
                   Table(["players", "team", "games", "won", "team win rate", f"{LEVEL} CI"], rows, left=2)]
    return Section("Team", blocks)


def side_section(a: Analysis, figures: dict) -> Section:
    """A competitive game with sides: win rate per side and the side-against-side matrix."""
    blocks = [Para(("Win rate of the seats that played each side, pooled over seats (a "
                    "description: opponents and seats varied with it).",)),
              _side_table(a.sides, "win rate")]
    if a.side_matchups is not None and not _side_matrix_shown(a):
        blocks.append(Para((f"Side against side is left out: {a.sides['side'].n_unique()} sides make "
                            f"a matrix of more than {MAX_MATRIX_SIDES} rows that no one reads; the "
                            "game's own sections give it by what makes up a side.",)))
    if _side_matrix_shown(a) and "side_matchups" in figures:
        rows = [[str(r["players"]), Code(r["strategy"]), Code(r["opponent_strategy"]), count(r["games"]),
                 pct(r["rate"]), ci(r["lo"], r["hi"])] for r in each_row(a.side_matchups)]
        blocks += [Para(("Side against side: how often a seat of the row side outscored a seat of the "
                         "column side in the same game (level scores count half; 50% is even).",)),
                   Figure("side_matchups", figures["side_matchups"],
                          "Head to head: row side beats column side" + plots.CELL_INTERVAL),
                   Table(["players", "side", "opponent side", "seat pairs", "score", f"{LEVEL} CI"], rows, left=3)]
    return Section("Sides", blocks)


def _side_matrix_shown(a: Analysis) -> bool:
    """The side-against-side matrix is drawn and tabled for at most MAX_MATRIX_SIDES sides."""
    return (a.side_matchups is not None and a.side_matchups.height > 0
            and a.sides is not None and a.sides["side"].n_unique() <= MAX_MATRIX_SIDES)


def _side_table(frame: pl.DataFrame, what: str) -> Table:
    return Table(["players", "side", "seat-games", what, f"{LEVEL} CI"],
                 [[str(r["players"]), Code(r["side"]), count(r["games"]), pct(r["rate"]), ci(r["lo"], r["hi"])]
                  for r in each_row(frame)], left=2)


def _no_variation(f: dict, a: Analysis) -> str:
    """Plain words for a player count where no seat's share ever varied."""
    n = f["players"]
    if f["games"] == 0 and f["capped"]:
        return "the turn cap stopped every game, so no game handed out a win"
    if f["all_tied"]:
        score = a.constant_scores.get(n)
        what = f"every game was a {n}-way tie" + (f" (every seat scored {score} in every game)"
                                                  if score is not None else "")
        why = (f": every seat played {a.deterministic_alike}, a deterministic strategy, and identical "
               "players make identical choices, so no seat can get ahead" if a.deterministic_alike else "")
        return what + why
    rates = a.seat_rates.filter(pl.col("players") == n)
    # a seat that won every finished game (capped games hand out no win)
    always = [r["seat"] for r in each_row(rates) if f["games"] and math.isclose(r["rate"] * r["games"], f["games"])]
    if always:
        return f"seat {always[0]} won every game"
    return "every game ended the same way for every seat (no seat's win share ever varied)"


# A seat edge found at an adjusted p this small is not re-checked on another seed: the chance
# that it is a false alarm is below it
CONFIRM_BELOW = 0.001


def seat_line(f: dict, a: Analysis) -> tuple:
    """The verdict on one player count's seats: decided by the equal-seats chi-square test with
    Holm over the run's player counts, or, when no share varied, why no test applies. When the
    seats differ, the seats named as winning more or less than fair are those the per-seat
    tests find (``aggregate.seat_edges``), not the highest and lowest rates."""
    n = f["players"]
    rates = a.seat_rates.filter(pl.col("players") == n)
    fair = float(rates["fair"][0])  # 1/n of the games that handed out a win
    never = [r["seat"] for r in each_row(rates) if r["rate"] == 0.0]
    never_text = (f" Seat{'s' if len(never) > 1 else ''} {and_list(never)} never won a game."
                  if never else "")
    if f["constant"]:
        return (f"{n} players: ", Strong("no test possible"), f" — {_no_variation(f, a)}. Seat "
                "fairness cannot be judged from these games.")
    gap = f"gap {pp(f['gap'])} between seat {f['best_seat']} and seat {f['worst_seat']}"
    if f["p_adjusted"] < ALPHA:
        # a false alarm is worth a second seed while it is a plausible chance (p near the level),
        # not at p < 0.001, where that advice read as boilerplate beside p < 1e-6
        confirm = (" Before acting on it, confirm with a run on another --seed: these seat tests keep false "
                   "alarms to 5% over the run's player counts and seats, not to none."
                   if f["p_adjusted"] >= CONFIRM_BELOW else "")
        return (f"{n} players: ", Strong("seat edge found"), f" (equal-seats test, Holm-adjusted "
                f"{p_phrase(f['p_adjusted'])}) — {_named_seats(a, rates, n, fair)}; {gap} ({LEVEL} CI "
                f"{ci(f['gap_lo'], f['gap_hi'], ' pp')}).{never_text}{confirm}",)
    edge = f["detectable_edge"]
    power = (f"; this run detects edges of {pp(edge)} or more with {POWER:.0%} power"
             if not math.isnan(edge) else "; this run is too small to detect any edge reliably")
    return (f"{n} players: ", Strong("no seat edge found"), f" (largest {gap}; equal-seats test, "
            f"Holm-adjusted {p_phrase(f['p_adjusted'])}){power}; fair is {pct(fair)}.{never_text}",)


def _named_seats(a: Analysis, rates: pl.DataFrame, n: int, fair: float) -> str:
    """The seats found above and below fair at ``n`` players, highest first, each with its
    interval, and the largest adjusted p among them; the others said to be not told apart. With
    no per-seat test (a run without squared shares) or none found, the highest and lowest
    rates, named as estimates. At 2 players both seats, by the equal-seats test that found the
    edge: one seat's edge is the other's."""
    by_seat = {r["seat"]: r for r in each_row(rates)}

    def shown(seat: int) -> str:
        r = by_seat[seat]
        return rate_ci(r["rate"], r["lo"], r["hi"])

    if n == 2:  # one seat above fair is the other below: the equal-seats test that found the edge decides both
        best = rates.row(int(rates["rate"].arg_max()), named=True)["seat"]
        worst = 1 - best
        return (f"seat {best} wins more than the fair {pct(fair)}: {shown(best)}, and seat {worst} less: "
                f"{shown(worst)} (with two seats, one seat's edge is the other's, so the test that found the edge "
                "names both)")

    edges = (a.seat_edges.filter((pl.col("players") == n) & (pl.col("p_adjusted") < ALPHA))
             .sort("edge", descending=True) if a.seat_edges is not None else None)
    if edges is None or not edges.height:
        best = rates.row(int(rates["rate"].arg_max()), named=True)["seat"]
        worst = rates.row(int(rates["rate"].arg_min()), named=True)["seat"]
        lead = ("no single seat is told apart from fair (each seat against fair, Holm over the seats of the "
                "player counts tested): "
                if edges is not None else "")
        return (f"{lead}the highest rate is seat {best}'s, {shown(best)}, the lowest seat {worst}'s, "
                f"{shown(worst)}, against the fair {pct(fair)}")
    named = []
    for word, side in (("more", edges.filter(pl.col("edge") > 0)), ("less", edges.filter(pl.col("edge") < 0))):
        if side.height:
            seats = side["seat"].to_list()
            named.append(f"seat{'s' if len(seats) > 1 else ''} {and_list(seats)} "
                         f"win{'' if len(seats) > 1 else 's'} {word}{'' if named else f' than the fair {pct(fair)}'}: "
                         f"{and_list([shown(seat) for seat in seats])}")
    rest = rates.height - edges.height
    others = (f"; the other {rest} are not told apart from fair" if rest > 1 else
              "; the other is not told apart from fair" if rest == 1 else "")
    worst = float(edges["p_adjusted"].max())  # "p < 1e-6 or less" read oddly: said once, as a bound
    bound = "each adjusted p < 1e-6" if pvalue(worst).startswith("<") else f"each adjusted p ≤ {pvalue(worst)}"
    return (f"{'; '.join(named)} (each seat against fair, Holm over the seats of the player counts tested: "
            f"{bound}){others}")


def capped_line(a: Analysis) -> tuple | None:
    """How many games the turn cap stopped (they hand out no win, so the seat tests are over
    the finished games); None when no game was capped or the run predates the outcomes table."""
    if a.outcomes is None:
        return None
    capped = a.outcomes.filter((pl.col("outcome") == CAPPED) & (pl.col("games") > 0))
    if not capped.height:
        return None
    parts = [f"{rate_ci(r['share'], r['share_lo'], r['share_hi'])} at {players_phrase(r['players'])}"
             for r in each_row(capped)]
    effect = (" They count as not won by the team." if a.team is not None else
              " They hand out no win: seat and strategy rates count them as lost by every seat, and "
              "the tests and the fair rate (1/n of the finished games) use only the finished games.")
    return ("Games stopped by the turn cap before the rules ended them: ", "; ".join(parts),
            f".{effect} Raise the cap (see ", Code("balance rules"), ") if these games matter.")


def players_phrase(n: int) -> str:
    """"1 player", "3 players": a player count in words."""
    return f"{n} player{'s' if n != 1 else ''}"


def _playable_counts(game, low: int, high: int) -> list[int]:
    """The counts of ``low``..``high`` the game's rulebook plays as it stands: a count whose rules
    need a setting of their own (a hand at 2 players) is left out, or the example of several
    counts was refused when run as given."""
    if game is None:
        return list(range(low, high + 1))
    rules = game.part("rules").Rules
    playable = []
    for n in range(low, high + 1):
        try:
            rules.from_overrides({"players": n})
        except BalanceError:
            continue
        playable.append(n)
    return playable or list(range(low, high + 1))


def player_count_lines(a: Analysis, game=None) -> list[tuple]:
    """Which player counts have seat edges (the seat tests), and whether ties are more common
    at some counts (chi-square of homogeneity). ``game``: the game's declaration (None when not
    installed here), for the counts a run of one count could add."""
    f = a.fairness
    counts = f["players"].to_list()
    if len(counts) == 1:
        low, high = game.players if game is not None else (counts[0], counts[0] + 2)
        if low == high:  # a game of one player count: nothing to compare, nothing to advise
            return [(f"The game is played by {counts[0]} players only.",)]
        every = ",".join(map(str, _playable_counts(game, low, high)))
        return [(f"Only {counted(counts[0], 'player')} {'was' if counts[0] == 1 else 'were'} simulated; give "
                 f"--players with several counts (e.g. {every}) to compare them.",)]
    tested = f.filter(~pl.col("constant"))
    found = tested.filter(pl.col("p_adjusted") < ALPHA)["players"].to_list()
    untested = f.filter(pl.col("constant"))["players"].to_list()
    if found:
        clean = [n for n in tested["players"].to_list() if n not in found]
        seats = (f"Seat edges found at {and_list(found)} players"
                 + (f"; none at {and_list(clean)}" if clean else "") + ".")
    elif tested.height:
        seats = f"No seat edge found at {and_list(tested['players'].to_list())} players."
    else:
        seats = "No player count could be tested (no seat's win share ever varied)."
    if untested and tested.height:
        seats += f" {and_list(untested)} players could not be tested (no variation)."
    lines = [(seats,)]
    pc = a.player_counts
    shares = ", ".join(f"{pct(r['tie_rate'])} at {r['players']}" for r in each_row(pc))
    ties = a.ties_across_counts
    if ties is None:
        lines.append((f"Games whose win was shared (a tie): {shares} players.",))
    else:
        verdict = "differ between player counts" if ties["p_value"] < ALPHA else "do not differ detectably"
        name, why = _homogeneity(ties, "chi-square test", "ties")
        lines.append((f"Games whose win was shared (a tie): {shares} players; these rates ",
                      Strong(verdict), f" ({name} of equal rates{why}, {p_phrase(ties['p_value'])}).",))
    return lines


def card_verdict(g: pl.DataFrame, item: str = "card", act: str = "removing {}", passive: str = "removed") -> tuple:
    """The verdict of one player count's restricted-play effects (aggregate.card_effects, sorted
    or not): which item matters most, which are better removed, which change nothing; every
    claim decided by the paired test with Holm over the run's tests. Used by every game with
    restricted play and by `balance restrict`. item: what restricted play denies
    (GameInfo.restrictable), for the sentences that name the kind; act and passive: what
    restricted play does to it ("swapping {} for its stand-in", "swapped for its stand-in").
    No rows (no game dealt an item it measures): says so."""
    if g.is_empty():
        return (Strong(f"no game dealt a {item} it measures"), f", so no {item} is named strong or weak "
                "(give the seats sides or decks that hold it, or play more games).")
    g = g.sort("difference", "card").with_row_index("_row")  # ties in name order, whatever the sort
    found = g.filter(pl.col("p_adjusted") < ALPHA)
    hurts = found.filter(pl.col("difference") < 0)
    helps = found.filter(pl.col("difference") > 0).sort("difference", "card", descending=[True, False])
    unchanged = sorted(g.filter(pl.col("unchanged"))["card"].to_list())
    quiet = sorted(g.filter((pl.col("p_adjusted") >= ALPHA) & ~pl.col("unchanged"))["card"].to_list())
    parts: list = []
    if hurts.height:
        top = hurts.row(0, named=True)
        # "matters most" only when its interval is apart from every other item's: else its
        # cost is the largest estimate, not one shown larger than the next item's
        at = top["_row"]
        others = g.filter((pl.col("_row") != at) & pl.col("lo").is_not_null()).sort("lo")
        if apart(g, at, top=False):
            most = "matters most"
        elif at == 0:  # the largest cost, its interval reaching into another's (named)
            most = f"matters most by estimate (its interval overlaps the {others['card'][0]}'s)"
        else:  # another item's estimate is larger, but its test found nothing (or it had none)
            larger = g.row(0, named=True)
            why = "not tested" if larger.get("p_value", 0.0) is None else "not found"
            most = f"costs most of the {item}s found (the {larger['card']}'s estimate is larger, but {why})"
        parts += [f"the {top['card']} {most} — {act.format('it')} costs its seat "
                  f"{pp(-top['difference'])} of win rate ({LEVEL} CI {ci(-top['hi'], -top['lo'])[:-1]} pp, "
                  f"Holm-adjusted {p_phrase(top['p_adjusted'])})"]
    costly = hurts.slice(1)  # the other items whose removal costs their seat, largest first
    for r in (costly if costly.height <= HELPS_NAMED + 1 else costly.head(HELPS_NAMED)).iter_rows(named=True):
        name = f"the {r['card']}"
        parts += [f"; {act.format(name)} also costs its seat {pp(-r['difference'])} "
                  f"({LEVEL} CI {ci(-r['hi'], -r['lo'])[:-1]} pp, Holm-adjusted {p_phrase(r['p_adjusted'])})"]
    if costly.height > HELPS_NAMED + 1:
        parts += [f"; {act.format(f'any one of {costly.height - HELPS_NAMED} other {item}s')} also costs, "
                  "by less (the table names them)"]
    named = helps if helps.height <= HELPS_NAMED + 1 else helps.head(HELPS_NAMED)  # the largest; the table has all
    for r in named.iter_rows(named=True):
        parts += [("; " if parts else "") + act.format(f"the {r['card']}") + " ", Strong("helps"),
                  f": {diff_ci(r['difference'], r['lo'], r['hi'])}, Holm-adjusted {p_phrase(r['p_adjusted'])}"]
    if helps.height > named.height:
        parts += [f"; {act.format(f'any one of {helps.height - named.height} other {item}s')} also helps, "
                  "by less (the table names them)"]
    if not found.height:
        # the largest of the tested items: an untested one (a card one deck holds) has no interval to show
        tested = "p_value" in g.columns and g["p_value"].is_not_null().any()
        pool = g.filter(pl.col("p_value").is_not_null()) if tested else g
        top = pool.row(int(pool["difference"].abs().arg_max()), named=True)
        none = (f"no {item}'s removal changes its seat's win rate detectably" if passive == "removed" else
                f"no {item} {passive} changes its seat's win rate detectably")
        parts += [Strong(none), f" (largest: the {top['card']}, {diff_ci(top['difference'], top['lo'], top['hi'])}"
                  f"{_card_power(g, quiet, f'any one {item}')})"]
    if unchanged:
        parts += [f"; {act.format(_few(unchanged, item))} changed no game at all"]
    if quiet and found.height:
        parts += [f"; {act.format(_few(quiet, item))} makes no detectable difference"
                  f"{_card_power(g, quiet, _it(quiet, item))}"]
    summary = (f". {found.height} of {g.height} {item}s change their seat's win rate detectably "
               f"(Holm over the run's {item} tests).")
    return (*parts, summary)


def card_strength_lines(effects: pl.DataFrame | None, game: str) -> list[tuple]:
    """The verdict's Cards lines of a game whose cards are measured by restricted play: each
    player count's ``card_verdict``, in the words the game declares (GameInfo.restrictable,
    restrict_act), or why there is none. effects: aggregate.card_effects rows, or None when the
    run did not measure them; no rows when it did, but no game dealt a card it measured (fixed
    sides without the card's faction, a card no drawn deck held)."""
    from balance.core.registry import get_game

    if effects is None:
        return [("Card strength was not measured in this run: add --card-strength to ", Code("balance simulate"),
                 " (or run ", Code(f"balance restrict {game}"), "). No card is named strong or weak.",)]
    info = get_game(game)
    mode = effects["when"][0] if "when" in effects.columns and effects.height else None
    words = (info.restrictable, *info.act(mode))  # "holding the 3 back ..." where the mode holds it back
    if effects.is_empty():
        return [("Card strength was measured, but ", *card_verdict(effects, *words))]
    return [(f"{n} players: ", *card_verdict(g, *words))
            for (n,), g in effects.group_by("players", maintain_order=True)]


def cards_measured(effects: pl.DataFrame | None) -> bool:
    """Card strength has rows to show: measured (not None), and some game dealt a card it measures."""
    return effects is not None and not effects.is_empty()


def _card_power(g: pl.DataFrame, names: list, which: str) -> str:
    """'; a change of 2.10 pp or more in {which} would have been found with 90% power': the
    largest ``detectable`` (aggregate.card_effects) of the items ``names``, so the claim holds
    for each; empty without that column (a table written before it) or a tested item."""
    if "detectable" not in g.columns or not names:
        return ""
    worst = g.filter(pl.col("card").is_in(names))["detectable"].max()
    if worst is None:
        return ""
    return f"; a change of {pp(worst)} or more in {which} would have been found with {POWER:.0%} power"


def _it(names: list, item: str) -> str:
    """How a sentence refers back to the items ``names`` it just listed."""
    return "it" if len(names) == 1 else f"any one of these {item}s"


def _few(names: list, item: str) -> str:
    """Items for a verdict sentence: each by name when few, else how many (the table lists them)."""
    if len(names) <= MAX_NAMED:
        return f"the {and_list(names)}"
    return f"any one of {len(names)} other {item}s (the table names them)"


_STRATEGY_TEST = ("; the two ends each tested against the fair 1/n, a z-test on the per-game shares (a "
                  "strategy in several seats: its per-game total), Holm over every strategy and player count; a rate "
                  "depends on the opponents this mix gave it, so which strategy beats which is the question of ",
                  Code("balance matchups"), ").")


def _strategy_heading(s: Strategies) -> tuple:
    named = brief_note(_labels(s))
    if s.source == "run":
        return (Strong("Strategies"), " (win rate per seat played, pooled over seats, 95% CIs", *_STRATEGY_TEST,
                *named)
    return (Strong("Strategy mix"), " (from the separate run ", Code(s.source), ", strategies ",
            "rotated over the seats; win rate per seat played, 95% CIs", *_STRATEGY_TEST, *named)


# A strategy label longer than this (a tuned strategy's parameters) is named "NAME:…" in the
# verdict's lines, once spelt out beside their heading (brief_note), and in full under Run.
BRIEF = 32


def brief(label: str, labels) -> str:
    """``label`` as a verdict line names it: "greedy:…" for a label longer than BRIEF characters
    whose name no other of ``labels`` shares, else the label itself."""
    name, sep, _ = label.partition(":")
    if not sep or len(label) <= BRIEF or sum(other.partition(":")[0] == name for other in labels) > 1:
        return label
    return f"{name}:…"


def brief_note(labels) -> tuple:
    """' `greedy:…` is `greedy:samples=17,w_reward=2.4432`.' for every label ``brief`` shortens."""
    parts = []
    for label in labels:
        if brief(label, labels) != label:
            parts += [" ", Code(brief(label, labels)), " is ", Code(label), "."]
    return tuple(parts)


def untuned_cautions(untuned: dict, labels, plays: str = "it plays") -> list[tuple]:
    """One caution for each strategy of ``untuned`` (``strategy.untuned_counts``: label -> (the
    count it was tuned at, the counts it plays untuned)), the words of every output that plays
    one: 'Caution: `greedy:…` was tuned by `balance tune` at 4 players; at 3 and 5 players it
    plays those weights untuned, so its play there may be weaker than at 4 players.'"""
    return [(Strong("Caution:"), " ", Code(brief(label, labels)), " was tuned by ", Code("balance tune"),
             f" at {players_phrase(tuned)}; at {and_list(counts)} player{'s' if counts != [1] else ''} {plays} "
             f"those weights untuned, so its play there may be weaker than at {players_phrase(tuned)}.")
            for label, (tuned, counts) in untuned.items()]


def _labels(s: Strategies) -> list[str]:
    """The strategy labels of a verdict's strategy lines, in their first order."""
    return list(dict.fromkeys(s.rates["strategy"].to_list()))


def _against_fair(s: Strategies) -> dict[tuple[int, str], float]:
    """Holm-adjusted p of every strategy of every count against the fair rate (1/n of the finished
    games, ``strategy_rates``' fair; ``stats.mean_test``
    on the pooled seat-games' win shares; seat-games of one strategy in one game are negatively
    correlated, so taking them as independent is conservative). Every strategy is in the family,
    not only the two ends the verdict names: those are picked for being furthest from fair, so
    correcting for them alone would call equal strategies off fair far above the level.
    Empty for a run without squared shares (written before they were kept)."""
    if "win_share_sq_sum" not in s.rates.columns:
        return {}
    keys = [(r["players"], r["strategy"]) for r in each_row(s.rates)]
    p = [_cluster_p(r) if r.get("se") is not None else
         stats.mean_test(r["win_share"], r["win_share_sq_sum"], r["games"], r["fair"])["pvalue"]
         if r["games"] >= 2 else 1.0 for r in each_row(s.rates)]
    return dict(zip(keys, stats.holm(np.array(p, dtype=float)).tolist()))


def _cluster_p(r: dict) -> float:
    """Two-sided z-test of a strategy's rate against fair with its game-clustered ``se``."""
    from scipy.stats import norm

    if r["se"] <= 0:
        return 1.0 if r["rate"] == r["fair"] else 0.0
    return float(2 * norm.sf(abs(r["rate"] - r["fair"]) / r["se"]))


def strategy_lines(s: Strategies) -> list[tuple]:
    lines = []
    tested = _against_fair(s)
    labels = _labels(s)  # a long one named briefly (brief), spelt out by the heading (_strategy_heading)

    def against(n: int, row: dict) -> str:
        p = tested.get((n, row["strategy"]))
        if p is None:
            return ""
        if p >= ALPHA:
            return f", not told apart from the fair {pct(row['fair'])} (adjusted {p_phrase(p)})"
        side = "above" if row["rate"] > row["fair"] else "below"
        return f", {side} the fair {pct(row['fair'])} (adjusted {p_phrase(p)})"

    for (n,), g in s.rates.group_by("players", maintain_order=True):
        high, low = int(g["rate"].arg_max()), int(g["rate"].arg_min())
        best, worst = g.row(high, named=True), g.row(low, named=True)
        never = " It never won a game." if worst["rate"] == 0 else ""
        fair = f"; fair {pct(best['fair'])}" if not tested else ""
        # "strongest"/"weakest" only for a strategy whose interval is apart from every other's
        best_word = "strongest " if apart(g, high) else "highest rate "
        worst_word = "weakest " if apart(g, low, top=False) else "lowest rate "
        lines.append((f"{n} players: {best_word}", Code(brief(best["strategy"], labels)),
                      f" {rate_ci(best['rate'], best['lo'], best['hi'])}{against(n, best)}; {worst_word}",
                      Code(brief(worst["strategy"], labels)),
                      f" {rate_ci(worst['rate'], worst['lo'], worst['hi'])}{against(n, worst)}{fair}"
                      f"{_apart_note(best_word, worst_word, 'strategy')}.{never}", *_self_level(s, n)))
    mixes = {n: tuple(sorted(zip(g["strategy"].to_list(), np.round(g["share"].to_numpy(), 6))))
             for (n,), g in s.seat_share.group_by("players", maintain_order=True)}
    if len(set(mixes.values())) > 1:
        held = "; ".join(f"at {n} players " + ", ".join(f"{brief(label, labels)} {share:.0%}" for label, share in mix)
                         for n, mix in sorted(mixes.items()))
        lines.append(("The mix differs by player count (share of the seats each strategy held: "
                      f"{held}), so compare a strategy's rate across player counts with care.",))
    return lines


def _self_level(s: Strategies, n: int) -> tuple:
    """A strategy holding several seats whose seats ended level with each other in every game
    (a deterministic strategy meeting itself, e.g. two `threshold` seats playing the same
    cards): its rate measures that meeting, not the strategy against the others."""
    if s.matchups is None:
        return ()
    mirror = s.matchups.filter((pl.col("players") == n) & (pl.col("strategy") == pl.col("opponent_strategy"))
                               & (pl.col("games") > 0) & (pl.col("level") == pl.col("games")))
    if not mirror.height:
        return ()
    return (" The seats of ", *code_list(mirror["strategy"].to_list()), " ended level with each other in "
            "every game they shared (copies of one strategy that play alike, as deterministic ones do), so "
            "its rate here describes that meeting more than the strategy.")


def _restrict_meaning(game: str, mode: str) -> str:
    """What the run's restricted play denied, in the game's words (the mode itself when the
    game is not installed here)."""
    from balance.core.registry import get_game

    try:
        info = get_game(game)
    except BalanceError:
        return mode
    return f"{info.restrictable or 'item'} {info.restrict_meaning(mode)}"


def _declared(game: str):
    """The game's declaration, or None when the game is not installed here (the report of a
    run from elsewhere: the suggestion is then generic)."""
    from balance.core.registry import get_game

    try:
        return get_game(game)
    except BalanceError:
        return None


def _seat_order(manifest: dict) -> str:
    """Who plays first, as the game declares it ('seat 0 is the first player' for a game not
    installed here); a game's function of the players and rules is asked for each player count
    of the run, and where the counts differ each is named."""
    game = _declared(manifest["game"])
    order = game.seat_order if game is not None else GameInfo.seat_order
    if isinstance(order, str):
        return order
    said = {run["players"]: order(run["players"], run["rules"]) for run in manifest["runs"]}
    if len(set(said.values())) == 1:
        return next(iter(said.values()))
    return "; ".join(f"at {n} players, {words}" for n, words in said.items())


# The levers' name and what their comparison measures, by what they act on
# (balance.core.game.LEVER_TARGETS)
_LEVER_WORDS = {"seats": ("seat levers", "the seats' distance from fair tested"),
                "difficulty": ("difficulty levers", "the team's win rate tested")}


def _run_settings(game, manifest: dict, run: dict) -> list[str]:
    """``KEY=VALUE`` for every rule of ``run`` that differs from the rulebook (the run's
    --set and variant file), so a proposed comparison plays the run's conditions; with the
    game not installed, or no rulebook at the run's player count (rules that need an explicit
    choice there), the run's --set alone."""
    overrides = (manifest.get("variant") or {}).get("overrides") or {}
    given = [f"{k}={setting_text(v)}" for k, v in overrides.items() if k != "players"]
    if game is None:
        return given
    try:
        rulebook = as_json(game.part("rules").Rules.from_overrides({"players": run["players"]}).to_dict())
    except BalanceError:
        return given
    return [f"{k}={setting_text(v)}" for k, v in run["rules"].items()
            if k != "players" and k in rulebook and as_json(v) != rulebook[k]]


def _removal_differs(game, mode: str | None) -> str:
    """' (card strength measured it held back until ...; this compares removing it)' when the
    finding's restricted play (``mode``, the hint's "when") did not remove the item (a mode with
    its own act, GameInfo.act), since the proposed variant removes it: a related question, not
    the one measured. Else ''."""
    if game is None or game.act(mode) == game.restrict_act:
        return ""
    return f" (card strength measured it {game.act(mode)[1]}; this compares removing it)"


# Below this many games a run's proposed comparison is offered as a pilot for `balance plan`
PILOT_GAMES = 10_000


def try_next(manifest: dict, a: Analysis) -> list[tuple]:
    """Ready `balance compare` commands, one bullet each. The first aims at the report's most
    decisive finding: the game's own proposal, else the rules without the item that decides
    most, else the game's levers for what was found (a seat edge; a cooperative game's
    difficulty), else a placeholder for a rule change of the designer's. When a seat edge was
    found and the first is about something else, a second compares the game's seat levers at
    that edge's player count, naming the other counts with an edge. Each plays the run's rules
    (--set). Then, for a small run, that its commands are a pilot; and where the game measures
    restricted play but this run did not and the game proposed nothing, how to measure it.
    Seat edges count only where the seats differ by position alone (one strategy, or --rotate):
    with each seat kept to its own strategy an edge is partly the strategies'."""
    f = a.fairness
    comparable = _seats_comparable(manifest, a)  # else a seat edge is partly its seat's strategy's
    edges = (f.filter(~pl.col("constant") & (pl.col("p_adjusted") < ALPHA)) if f is not None and comparable
             else pl.DataFrame())
    edge_players = int(edges.row(int(edges["p_adjusted"].arg_min()), named=True)["players"]) if edges.height else None
    found = a.game_report.variant_hint(a.game) if a.game is not None else None
    found, more = (found[0] if found else None, found[1:]) if isinstance(found, list) else (found, [])
    game = _declared(manifest["game"])
    if found is not None:  # the game's most decisive item (e.g. a card whose removal matters)
        players, card, why = found["players"], found["item"], found["why"]
    elif edge_players is not None:
        players, card = edge_players, None
        why = _favoured(edges, players, a.seat_edges)
    elif a.team is not None:  # at the full table (the largest count), where the game is usually played
        team = a.team.rates.sort("players").row(-1, named=True)
        players, card = team["players"], None
        why = (f"to make the game easier or harder (the team wins {pct(team['rate'])} at {players} players), "
               "measure the change in the team's win rate")
    else:
        players, card = manifest["runs"][0]["players"], None
        why = ("no seat edge was found, so none of the game's seat levers is proposed, and the game proposes no "
               "other change" if _levers(game, "seats") else
               "no seat edge was found and the game proposes no change of its own")
        if f is not None and not comparable:
            kept = _seat_kept(manifest, a)
            why = (f"each seat kept its own {kept}, so a seat edge would be partly due to that {kept} "
                   "(--rotate measures the seats), and the game proposes no change of its own")
        elif f is not None and f["constant"].all():
            why = ("no seat could be tested (no seat's win share ever varied), and the game proposes no "
                   "change of its own")
    key = game.restrictable_rule if game is not None else None  # the rules key listing what was denied
    items = _run_at(manifest, players)["rules"].get(key) if key else None
    # what the game's levers should act on, when the game proposes nothing of its own
    target = None if found is not None else "difficulty" if a.team is not None else "seats" if edges.height else None
    primary = ()  # the proposed comparison's question, where the proposal has one (--primary)
    note = ""  # what the proposed comparison answers, where it is not what the finding measured
    if found is not None and "variant" in found:  # the game's own ready variant
        variants, hint, primary = [found["variant"]], found["hint"], found.get("primary", ())
    elif card is not None and isinstance(items, list) and card in items:
        variants = [f"no{card}:{key}=[{','.join(str(c) for c in items if c != card)}]"]
        # the rules' list is every seat's: a walkthrough ran this and read "different" (the score moved) as the card
        # mattering to a seat, though every seat losing the card alike need move no seat's rate
        hint = f"the {key} without the {card} for every seat" + _removal_differs(game, found.get("when"))
        note = ("This shows what the game becomes without it, not one seat's loss of it (the card strength above): "
                "every seat loses it alike, so no seat's own rate need move.")
    elif _levers(game, target):
        variants, hint, primary = _lever_proposal(game, target, players,
                                                  _run_common(game, manifest, _run_at(manifest, players)))
    else:
        variants = ["mine:KEY=VALUE"]
        hint = "a rule change of yours (replace KEY=VALUE)"
    also = _other_counts(edges, players) if target == "seats" else ()
    first = _proposal(manifest, game, players, why, hint, variants, also, primary, note)
    if first is None:  # the run already plays every lever proposed
        first = _proposal(manifest, game, players, f"{why} (this run already plays the game's levers for it)",
                          "a rule change of yours (replace KEY=VALUE)", ["mine:KEY=VALUE"])
    out = [first]
    for further in more:  # the game's further proposals, each a ready variant
        extra = _proposal(manifest, game, further["players"], further["why"], further["hint"], [further["variant"]],
                          (), further.get("primary", ()))
        out += [extra] if extra is not None else []
    if target != "seats" and edge_players is not None and _levers(game, "seats"):
        variants, hint, primary = _lever_proposal(game, "seats", edge_players,
                                                  _run_common(game, manifest, _run_at(manifest, edge_players)))
        second = _proposal(manifest, game, edge_players, _favoured(edges, edge_players, a.seat_edges), hint, variants,
                           _other_counts(edges, edge_players), primary)
        out += [second] if second is not None else []
    if manifest["games"] < PILOT_GAMES:  # the commands replay the run's own size
        out.append((f"{'These commands play' if len(out) > 1 else 'The command plays'} this run's "
                    f"{counted(manifest['games'], 'game')}, which may be too few to settle a comparison: "
                    "treat it as a pilot, run it with ", Code("--out DIR"), ", then ", Code("balance plan --pilot DIR"),
                    " gives the games it needs to find the difference it saw.",))
    if found is None and game is not None and game.restrictable and a.cards is None and not manifest.get(
            "card_strength"):  # what decides most may be an item this report has not measured
        item = game.restrictable
        out.append((f"{item[0].upper()}{item[1:]} strength was not measured in this run, so nothing above aims at "
                    f"a {item}: measure it (", Code(f"balance simulate {manifest['game']} ... --card-strength"),
                    ", in a smaller run if need be, given to ", Code("balance report RUN --card-strength DIR"),
                    f") for the {item}s that matter and, where the game proposes one, a change aimed at them.",))
    return out


def _other_counts(edges: pl.DataFrame, players: int) -> list[int]:
    """The player counts besides ``players`` whose seats were found unequal (``edges``: the
    fairness rows with an edge), in order."""
    return sorted(int(n) for n in edges["players"] if int(n) != players)


def _favoured(edges: pl.DataFrame, players: int, seat_edges: pl.DataFrame | None = None) -> str:
    """'a seat is favoured at 3 players (also at 2 and 4)': the count proposed first (the
    smallest p), then the other counts with a seat edge. Where the per-seat tests found no seat
    above fair there, only one below (or none alone), 'the seats differ': a walkthrough read 'a
    seat is favoured' where the one seat found was 0.23 pp below fair."""
    others = _other_counts(edges, players)
    # at two seats the equal-seats test that found the edge names the seat above (the seat line's _named_seats)
    above = (players == 2 or seat_edges is None or seat_edges.filter(
        (pl.col("players") == players) & (pl.col("edge") > 0) & (pl.col("p_adjusted") < ALPHA)).height > 0)
    return (f"{'a seat is favoured' if above else 'the seats differ'} at {players} players"
            + (f" (also at {and_list(others)})" if others else ""))


def _run_at(manifest: dict, players: int) -> dict:
    """The manifest's run at ``players`` players (its first run when it has none there)."""
    return next((r for r in manifest["runs"] if r["players"] == players), manifest["runs"][0])


def _levers(game, target: str | None) -> list:
    """The game's declared levers that act on ``target`` (none without a game or target)."""
    return [lever for lever in (game.levers if game is not None else ()) if lever.acts_on == target]


def _lever_proposal(game, target: str, players: int, common: dict) -> tuple[list[str], str, tuple[str, ...]]:
    """The variants of the game's levers for ``target`` that change the run's rules at
    ``players`` players (``common``: the run's settings; ``_distinct``), the words that propose
    them, and the comparison's question (``--primary``): the seats' fairness test for seat
    levers, the team's win rate (a cooperative game's first compare metric) for difficulty
    levers."""
    kept = _distinct(game, [lever.variant for lever in _levers(game, target)], players, common)
    levers = [lever for lever in _levers(game, target) if lever.variant in kept]
    noun, measured = _LEVER_WORDS[target]
    question = ("seat_distance",) if target == "seats" else _first_compare_metric(game, players)
    # with the run's own settings, a lever's words ("24 instead of 12") still name the rulebook's value
    against = "; each worded against the rulebook, its setting replacing this run's" if common else ""
    return ([lever.variant for lever in levers],
            f"the game's {noun} ("
            + "; ".join(f"{lever.name}: {lever.what}" for lever in levers) + f"{against}), {measured}", question)


def _first_compare_metric(game, players: int) -> tuple[str, ...]:
    """The game's first `balance compare` metric at ``players`` players under the rulebook (a
    cooperative game's: the team's win), or nothing where the rulebook needs a choice there."""
    try:
        rules = game.part("rules").Rules.from_overrides({"players": players})
        return (game.part("metrics").compare_metrics([rules], players).names[0],)
    except BalanceError:
        return ()


def _proposal(manifest: dict, game, players: int, why: str, hint: str, variants: list[str],
              also: list[int] = (), primary=(), note: str = "") -> tuple | None:
    """One "try next" bullet: why, what (``hint``: what the variants change, the object of
    "compare the rulebook with ..."), and the ready command at ``players`` players with the
    run's strategies, rules (--set), games and seed, asking ``primary`` (its --primary); then how
    to run it at the player counts ``also``: the same command with their --players where the
    run played them with the same strategies and rules, else their own command. None when every
    variant plays the run's own rules there (a lever the run already uses). ``note``: a sentence
    after the command on what it answers."""
    command = _command(manifest, game, players, variants, primary)
    if command is None:
        return None
    same, own = [], []
    for n in also:
        other = _command(manifest, game, n, variants, primary)
        if other is None:
            continue
        (same if other == command.replace(f" --players {players} ", f" --players {n} ") else own).append((n, other))
    tail = [f"; at {and_list([n for n, _ in same])} players, the same command with "] if same else []
    for i, (n, _) in enumerate(same):
        tail += [" or "] * bool(i) + [Code(f"--players {n}")]
    if same and " --side " not in command:  # one comparison of them all (compare's --side fixes one count's)
        counts = sorted([players, *dict(same)])
        tail += [f", or {and_list(counts)} players in one comparison, every count corrected together, with ",
                 Code("--players " + ",".join(map(str, counts)))]
    extra = [x for n, other in own for x in (f"; at {n} players{_dropped(manifest, game, variants, n)}: ",
                                               Code(other))]
    own = _run_settings(game, manifest, _run_at(manifest, players))  # the command's baseline: the run's rules
    variant = manifest.get("variant") or {}  # a run's --variant file: its settings go as --set too
    filed = ("its variant file's and --set settings" if variant.get("overrides") else "its variant file's settings")
    baseline = ((f"this run's rules ({filed}, passed with --set)" if variant.get("file") else
                 "this run's rules (the rulebook with its --set)") if own else "the rulebook")
    # a run that rotated its given sides: compare cannot rotate, and one seating's sides held fixed would make
    # the seat rows that matchup's, so the command draws them (a run that kept them per seat gets its --side)
    noun = (game.side if game is not None else None) or "side"
    held = (f"; compare draws each game's {noun}s, where this run rotated the ones it was given: it cannot rotate "
            "the seats" if isinstance(manifest.get("sides"), list) and manifest.get("rotate") else "")
    mixed = _rotated_mix(manifest, players)
    one = ((" It plays ", Code(mixed), " in every seat, where this run rotated a mix: compare cannot rotate the "
            "seats, and a mix kept to fixed seats would make the seat numbers the strategies' as well.")
           if mixed else ())
    return (f"{why[0].upper()}{why[1:]}: compare {baseline} with {hint} on the same games (common random numbers): ",
            Code(command), *extra, *tail, " (", Code(f"balance rules {manifest['game']}"),
            f" lists every rule{held}).", *one, *((" " + note,) if note else ()))


def _rotated_mix(manifest: dict, players: int) -> str | None:
    """The strategy a proposed comparison plays in every seat at ``players`` players when the
    run rotated several there (--rotate): the game's default strategy (its strongest, as a rule,
    and what tune, ladder and restrict play) where the mix holds it, else the first given; None
    otherwise (the run's own seating is the command's)."""
    held = _run_at(manifest, players)["seatings"][0]["strategies"]
    if not manifest.get("rotate") or len({s["label"] for s in held}) < 2:
        return None
    game = _declared(manifest["game"])
    default = game.default_strategy if game is not None else None
    return next((s["label"] for s in held if s["name"] == default), held[0]["label"])


def _command(manifest: dict, game, players: int, variants: list[str], primary=()) -> str | None:
    """`balance compare` of ``variants`` against the run's rules at ``players`` players, with
    the run's strategies, rules (--set), games and seed there, and ``primary`` its question;
    None when no variant plays other rules than the run's there."""
    run = _run_at(manifest, players)
    variants = _distinct(game, variants, players, _run_common(game, manifest, run))
    if not variants:
        return None
    labels = [s["label"] for s in run["seatings"][0]["strategies"]]
    # one strategy in every seat where the run rotated a mix: compare cannot rotate (_rotated_mix)
    mixed = _rotated_mix(manifest, players)
    strategy = (["-s", shlex.quote(mixed or labels[0])] if len(set(labels)) == 1 or mixed
                else [w for label in labels for w in ("-s", shlex.quote(label))])
    settings = [w for setting in _run_settings(game, manifest, run) for w in ("--set", shlex.quote(setting))]
    # the run's sides kept per seat (absent: drawn per game; rotated: drawn, as _proposal says)
    sides = [s.get("side") for s in run["seatings"][0]["strategies"]]
    given = [] if None in sides or manifest.get("rotate") else [
        w for side in (sides[:1] if len(set(sides)) == 1 else sides) for w in ("--side", shlex.quote(side))]
    command = " ".join(["balance", "compare", manifest["game"], "--players", str(players), *strategy,
                        *settings, *given, "--variant", "default",
                        *[w for v in variants for w in ("--variant", shlex.quote(v))],
                        *[w for m in primary for w in ("--primary", shlex.quote(m))],
                        "--games", str(manifest["games"]), "--seed", str(manifest["seed"])])
    return command


def _distinct(game, variants: list[str], players: int, common: dict | None = None) -> list[str]:
    """``variants`` less those ``_left_out`` names: the variants a proposed comparison keeps."""
    return [v for v, why in zip(variants, _left_out(game, variants, players, common)) if why is None]


def _left_out(game, variants: list[str], players: int, common: dict | None = None) -> list[str | None]:
    """Per variant, why a proposed comparison leaves it out at ``players`` players, or None:
    "run" when its rules there, over ``common`` (the run's settings, which the proposed
    command's --set gives every variant), equal the run's own (a lever the run already plays:
    compare would find nothing by construction); "same" when they equal an earlier variant's
    (a per-seat lever list whose entries differ only past this count). None for all of them
    where the game or a variant cannot be resolved."""
    if game is None:
        return [None] * len(variants)
    from balance.analysis.compare import parse_variant

    rules_cls = game.part("rules").Rules
    common = {**(common or {}), "players": players}
    try:
        resolved = [rules_cls.from_overrides({**common, **parse_variant(v).overrides, "players": players})
                    for v in variants]
        baseline = rules_cls.from_overrides(common)
    except BalanceError:  # e.g. the placeholder KEY=VALUE: nothing to resolve
        return [None] * len(variants)
    return ["run" if rules == baseline else "same" if rules in resolved[:i] else None
            for i, rules in enumerate(resolved)]


def _run_common(game, manifest: dict, run: dict) -> dict:
    """The run's rules at ``run``'s player count that differ from the rulebook, as --set
    overrides (what a proposed comparison gives every variant)."""
    return parse_overrides(_run_settings(game, manifest, run))


def _dropped(manifest: dict, game, variants: list[str], players: int) -> str:
    """', where cards_by_seat plays the same rules as another variant': the variants that
    ``_distinct`` leaves out at ``players`` players, or nothing."""
    from balance.analysis.compare import parse_variant

    why = _left_out(game, variants, players, _run_common(game, manifest, _run_at(manifest, players)))
    runs = [parse_variant(v).name for v, w in zip(variants, why) if w == "run"]
    names = [parse_variant(v).name for v, w in zip(variants, why) if w == "same"]
    words = [f"{and_list(runs)} {'plays' if len(runs) == 1 else 'play'} this run's rules"] if runs else []
    if names:
        words.append(f"{and_list(names)} {'plays' if len(names) == 1 else 'play'} the same rules as another variant")
    return f", where {' and '.join(words)}" if words else ""


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
_RUN_KEYS = {"game", "title", "rules_version", "package_version", "game_package", "seed", "games", "players",
             "rotate", "variant", "runs", "chunk_size", "keep_games", "timing", "card_strength",
             "tables"}


def _card_run_games(cards: CardRun) -> str:
    """'6,000 games at 2 players, seed 1' (a separate card-strength run's size)."""
    m = cards.manifest
    return (f"{counted(m['games'], 'game')} at {and_list(run['players'] for run in m['runs'])} players, "
            f"seed {m['seed']}")


def run_section(manifest: dict, strategies: Strategies | None = None, cards: CardRun | None = None) -> Section:
    """Everything needed to reproduce the run: game, counts, seed, strategies, every rule."""
    variant = manifest.get("variant") or {}
    timing = manifest.get("timing") or {}
    measured = manifest.get("card_strength") or (cards.manifest.get("card_strength") if cards else None)
    facts = [
        ("game", Code(manifest["game"])), ("title", manifest.get("title", "—")),
        ("player counts", _value(manifest["players"])), ("games per player count", count(manifest["games"])),
        ("seed", Code(str(manifest["seed"]))),
        ("seats rotated (--rotate)", _value(manifest.get("rotate", False))),
        ("variant file", _value(variant.get("file"))), ("rule overrides", _value(variant.get("overrides"))),
        ("package version", Code(str(manifest.get("package_version", "—")))),
        *([("game package (a studio's game)", Code(f"{package.get('name')} {package.get('version')}"))]
          if isinstance(package := manifest.get("game_package"), dict) else []),
        ("rules version", Code(str(manifest.get("rules_version", "—")))),
        ("chunk size", count(manifest["chunk_size"]) if "chunk_size" in manifest else "—"),
        ("per-game rows kept", _value(manifest.get("keep_games", False))),
        *([("tables written", _value(list(manifest["tables"])))] if isinstance(manifest.get("tables"), dict) else []),
        *([("card strength (--card-strength)",
            f"restricted play, {_restrict_meaning(manifest['game'], measured['when'])}"
            + (f", in the separate run {cards.name} ({_card_run_games(cards)})" if cards else ""))]
          if measured else []),
        ("simulation time", f"{timing['seconds']} s"
                            # a resumed run's time is its last session's, for the games that session played
                            + (f" for {counted(timing['games'], 'game')}" if "games" in timing else "")
                            + f" ({count(timing.get('games_per_second'))} games/s, "
                            f"{timing.get('machine', '?')}, Python {timing.get('python', '?')})"
         + (f"; compiling the kernels took {timing['compile_seconds']} s more" if timing.get("compile_seconds")
            else "") if "seconds" in timing else "—"),
    ]
    facts += [(key, Code(json.dumps(value))) for key, value in manifest.items() if key not in _RUN_KEYS]
    runs = manifest["runs"]
    return Section("Run", [
        Para(("Reproduce any number below with the same game, rules, strategies, seed and game count.",)),
        Table(["item", "value"], [[k, v] for k, v in facts], left=2),
        Para((Strong("Strategies"), " (every parameter, defaults included):"),),
        _strategy_table(runs),
        Para((Strong("Seatings:"), " which strategy sat in which seat, per block of games (seats "
              f"are numbered from 0; {_seat_order(manifest)})."),),
        _seating_table(runs),
        Para((Strong("Rules"), " per player count (every parameter of the rules):"),),
        _rules_table(runs),
        *(_mix_blocks(strategies) if strategies is not None and strategies.source != "run" else []),
    ])


def _mix_blocks(s: Strategies) -> list:
    """How the separate strategy-mix run was played (the Strategies section's source)."""
    m = s.manifest
    return [
        Para((Strong("Strategy mix run"), " ", Code(s.source), f": seed {m.get('seed')}, "
              f"{count(m.get('games'))} games per player count, seats rotated: "
              f"{_value(m.get('rotate', False))}; the same rules at the player counts both runs played "
              "(checked)."),),
        _strategy_table(m["runs"]),
        _seating_table(m["runs"]),
        _rules_table(m["runs"]),
    ]


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




def seat_section(a: Analysis, figures: dict, kept: str | None = None, held: str = "") -> Section:
    """Seat win rates, the equal-seats test, the gap and the detectable edge; ``kept``: what
    each seat kept of its own besides its position (``_seat_kept``), ``held``: the sides it
    fixed, in words (``_sides_held``)."""
    rates, fairness = a.seat_rates, a.fairness
    edge_p = ({(r["players"], r["seat"]): r["p_adjusted"] for r in each_row(a.seat_edges)}
              if a.seat_edges is not None else None)
    seat_rows = [[str(r["players"]), str(r["seat"]), count(r["games"]), pct(r["rate"]), ci(r["lo"], r["hi"]),
                  pp(r["rate"] - r["fair"], signed=True),
                  *([] if edge_p is None else [pvalue(edge_p[(r["players"], r["seat"])])
                                               if (r["players"], r["seat"]) in edge_p else "—"]),
                  count(r["wins_outright"]), count(r["wins_shared"]), num(r["mean_score"])]
                 for r in each_row(rates)]

    def outcome(f):
        if f["constant"]:
            return "no variation: not tested"
        return "edge found" if f["p_adjusted"] < ALPHA else "no edge found"

    test_rows = [[str(f["players"]), count(f["games"]), num(f["chi2"]), str(f["dof"]),
                  pvalue(f["p_value"]), pvalue(f["p_adjusted"]), str(f["best_seat"]),
                  str(f["worst_seat"]), pp(f["gap"]),
                  "—" if f["constant"] else ci(f["gap_lo"], f["gap_hi"], " pp"),
                  pp(f["detectable_edge"]), outcome(f)]
                 for f in each_row(fairness)]
    blocks = [
        Para(("Win rate of each seat (a tied win counts 1/k to each of the k winners), pooled over "
              "strategies, with its 95% interval, drawn as its edge over the fair rate 1/n (dashed: 0, fair).",)),
        Figure("seat_rates", figures["seat_rates"],
               "Each seat's win rate minus the fair 1/n, in pp, with 95% intervals; dashed: fair."),
        Table(["players", "seat", "games", "win rate", f"{LEVEL} CI", "edge (vs fair)",
               *([] if edge_p is None else ["edge Holm p"]), "outright wins", "shared wins", "mean score"],
              seat_rows, left=2),
        Para(("Test of equal seats: Pearson chi-square of the seat win shares against 1/n each "
              "(dof = n − 1), Holm-adjusted over the player counts of the run; it says whether the "
              "seats differ. Which seats: the edge's Holm p above, a normal test of each seat's "
              "per-game win shares against fair, Holm over every seat of the counts tested; the "
              "verdict names a seat only when both find it. Gap: the best "
              "seat's win rate minus the worst seat's. Detectable edge: the smallest edge of one "
              f"seat over or under 1/n that this test, in this Holm family, finds with {POWER:.0%} "
              "power at the 5% level (", Code("stats.detectable_seat_edge"), "; the test's own "
              "power). A player count where no seat's share ever varied is not tested.")),
        Table(["players", "games", "chi-square", "dof", "p", "Holm p", "best seat", "worst seat", "gap",
               f"gap {LEVEL} CI", "detectable edge", "seats"], test_rows, left=1),
        Para((_interval_statement(a), " The gap's two seats are picked after looking at the data: its "
              "interval holds for them because it holds for every pair of seats at once (Bonferroni), "
              "but the gap itself is biased away from 0. Read fairness from the test's p, and the gap "
              "for its size.")),
    ]
    if kept:
        blocks.append(Para((f"Caution: each seat kept its own {kept} (no --rotate), so seat "
                            f"differences include {kept} differences{held}.",)))
    return Section("Seat fairness", blocks)


def _sides_held(manifest: dict) -> str:
    """' (seat 0 A, seat 1 B)': the sides a run fixed per seat
    (--side, cycled over the seats), or nothing."""
    sides = manifest.get("sides")
    if not isinstance(sides, list) or len(set(sides)) < 2:
        return ""
    most = max(run["players"] for run in manifest["runs"])
    return " (" + ", ".join(f"seat {i} {sides[i % len(sides)]}" for i in range(most)) + ")"


def _interval_statement(a: Analysis) -> str:
    """Which interval the seat and strategy win rates carry (aggregate.py picks it from the columns)."""
    if a.observed_variance:
        return ("Win-rate intervals: normal interval on the per-game win share with its observed "
                "variance (the run kept the sum of squared shares), exact to first order with ties.")
    return ("Win-rate intervals: Wilson interval on the summed win share; a share between 0 and 1 "
            "varies at most as much as a win-or-lose outcome, so with ties the interval is conservative.")


def player_count_section(a: Analysis) -> Section:
    """One row per player count: seat spread, scores and ties side by side."""
    fairness = {f["players"]: f for f in each_row(a.fairness)}
    # 1/n of the games that handed out a win, as the verdict's (below 1/n where games were capped)
    fair = {r["players"]: r["fair"] for r in each_row(a.seat_rates.unique("players", keep="first"))}
    scored = a.score_summary is not None  # a game without a score has no score columns (they read 0.00)
    rows = []
    for r in each_row(a.player_counts):
        f = fairness[r["players"]]
        score = ([num(r["mean_score"]), f"{num(r['mean_lo'])} to {num(r['mean_hi'])}", num(r["score_sd"])]
                 if scored else [])
        rows.append([str(r["players"]), count(r["games"]), pct(fair[r["players"]]), pp(f["gap"]),
                     pvalue(f["p_adjusted"]), pp(f["detectable_edge"]), *score, pct(r["tie_rate"]),
                     ci(r["tie_lo"], r["tie_hi"]), num(r["winners_per_tie"])])
    ties = a.ties_across_counts
    tie_test = ([Para(("Tie rates across player counts: Pearson chi-square of homogeneity on games "
                       f"tied / not tied, chi-square {ties['chi2']:.1f} with {ties['dof']} dof, "
                       f"{p_phrase(ties['p_value'])}{_permuted(ties)}.",))] if ties else [])
    clustering = ("per game (the seats of one game are one cluster: their scores are correlated)"
                  if a.clustered_scores else "over seat-games treated as independent (this run "
                  "predates the per-game score totals, so the interval may be too narrow)")
    scores = (f"mean score and its spread over every seat-game, the mean's interval computed {clustering}; "
              if scored else "")
    return Section("Player count", [
        Para(("The same measures side by side for each player count. Seat gap: best minus worst "
              f"seat; Holm p: the equal-seats test; {scores}tied games: games whose top score was "
              "shared (the win is then split), with the average number of winners sharing it.",)),
        Table(["players", "games", "fair rate", "seat gap", "Holm p", "detectable edge",
               *(["mean score", f"{LEVEL} CI", "score sd"] if scored else []), "tied games", f"{LEVEL} CI",
               "winners per tie"], rows, left=1),
        *tie_test,
    ])


def strategy_section(s: Strategies, figures: dict) -> Section:
    """Strategy x seat heatmap, strategy rates pooled over seats and by seat."""
    pooled = [[str(r["players"]), Code(r["strategy"]), count(r["games"]), pct(r["rate"]),
               ci(r["lo"], r["hi"]), pp(r["rate"] - r["fair"], signed=True), num(r["mean_score"])]
              for r in each_row(s.rates)]
    by_seat = [[str(r["players"]), Code(r["strategy"]), str(r["seat"]), count(r["games"]), pct(r["rate"]),
                ci(r["lo"], r["hi"]), pp(r["rate"] - r["fair"], signed=True), num(r["mean_score"])]
               for r in each_row(s.by_seat)]
    held = [[str(r["players"]), Code(r["strategy"]), pct(r["share"])] for r in each_row(s.seat_share)]
    source = ([Para(("These numbers come from a separate run, ", Code(s.source), " (seed ",
                     Code(str(s.manifest.get("seed"))), f", {count(s.manifest.get('games'))} games per "
                     "player count), in which the strategies below shared the table; the rest of "
                     "this report comes from the main run.",))]
              if s.source != "run" else [])
    design = ("Strategies were rotated over the seats (--rotate), so every strategy played every "
              "seat equally often and seat effects cancel out of these comparisons."
              if s.manifest.get("rotate") else
              "Each seat kept one strategy (no --rotate): a strategy's rate also carries its "
              "seats' effects.")
    return Section("Strategies", [
        *source,
        Para((design,)),
        Para(("Share of the seats each strategy held, by player count (a strategy's rate is "
              "measured against the others in this mix; the mix can differ by player count):",)),
        Table(["players", "strategy", "seats held"], held, left=2),
        Figure("strategy_seat", figures["strategy_seat"],
               "Win rate by strategy and seat (in the cells); colour: the edge over the fair 1/n in pp, "
               "red above, blue below, one scale for every panel."),
        Para(("Pooled over seats (rate per seat-game: a strategy holding two seats of a game counts "
              "two seat-games):",)),
        Table(["players", "strategy", "seat-games", "win rate", f"{LEVEL} CI", "vs fair", "mean score"],
              pooled, left=2),
        Para(("By seat:",)),
        Table(["players", "strategy", "seat", "games", "win rate", f"{LEVEL} CI", "vs fair", "mean score"],
              by_seat, left=3),
        *_matchup_blocks(s, figures),
    ])


def _matchup_blocks(s: Strategies, figures: dict) -> list:
    """Head to head: how often one strategy's seat outscored another's in the same game."""
    if s.matchups is None:
        return []
    rows = [[str(r["players"]), Code(r["strategy"]), Code(r["opponent_strategy"]), count(r["games"]),
             count(r["ahead"]), count(r["level"]), pct(r["rate"]), ci(r["lo"], r["hi"])]
            for r in each_row(s.matchups)]
    return [
        Para(("Matchups: how often a seat of the row strategy outscored a seat of the column "
              "strategy in the same game (level scores count half; 50% is even), pooled over "
              "every pair of seats holding them.",)),
        Figure("matchups", figures["matchups"],
               "Head to head: row strategy beats column strategy" + plots.CELL_INTERVAL),
        Table(["players", "strategy", "opponent", "seat pairs", "ahead", "level", "score",
               f"{LEVEL} CI"], rows, left=3),
    ]


def score_section(a: Analysis, figures: dict) -> Section:
    """Score distributions and their summary per player count and strategy."""
    rows = [[str(r["players"]), Code(r["strategy"]), count(r["games"]), num(r["mean"]), num(r["sd"]),
             count(r["q25"]), count(r["median"]), count(r["q75"]), count(r["max"])]
            for r in each_row(a.score_summary)]
    return Section("Scores", [
        Para(("Distribution of final scores (share of seat-games with each score), per player count "
              "and strategy.",)),
        Figure("scores", figures["scores"], "Final-score distribution per player count and strategy."),
        Table(["players", "strategy", "seat-games", "mean", "sd", "25th pct", "median", "75th pct", "max"],
              rows, left=2),
    ])


def _team_methods(a: Analysis) -> Section:
    return Section("Methods", [Bullets([
        (f"Level: every interval is a two-sided {LEVEL} interval; \"differs\" means p < {ALPHA} in a "
         "two-sided test.",),
        ("Team win rate: games the team won over every game played (a game stopped by the turn cap "
         f"counts as not won), with the {aggregate.interval_name(a.method)} interval; every seat of a game "
         "shares the result, so no seat test applies.",),
        ("Team win rate across player counts: Pearson chi-square test of homogeneity on the games "
         f"won and not won at each count.{PERMUTED}",),
        ("With each side: the team's win rate over the seat-games that played the side, "
         f"{aggregate.interval_name(a.method)} interval; a description, not a test, because the team's other "
         "sides vary with it.",),
        ("Team composition: when every game's sides were drawn at random (no --side), Pearson "
         "chi-square test of equal win rates over the teams that played at each player count, "
         "Holm over the counts; the draw is independent of everything else in the game, so a "
         "difference between teams is caused by them. With --side the team is fixed and "
         f"nothing is tested.{PERMUTED}",),
        ("Game length: mean with a normal interval from the observed variance, per outcome.",),
        *(a.game_report.methods() if a.game is not None else []),
    ])])


def length_section(a: Analysis) -> Section:
    """How games ended (each outcome's share) and how long they took, per player count."""
    table = [[str(r["players"]), Code(r["outcome"]), count(r["games"]),
              rate_ci(r["share"], r["share_lo"], r["share_hi"]),
              "—" if r["games"] == 0 else num(r["length_mean"]),
              "—" if r["games"] < 2 else f"{num(r['length_lo'])} to {num(r['length_hi'])}", count(r["won"])]
             for r in each_row(a.outcomes)]
    return Section("Game length", [
        Para((f"How games ended and how long they took, in {a.length_unit}. \"{CAPPED}\": stopped by "
              "the turn cap before the rules ended the game (it hands out no win). Won: games in "
              "which a win was handed out (a cooperative game: the team won).",)),
        Table(["players", "outcome", "games", f"share ({LEVEL} CI)", "mean length",
               f"{LEVEL} CI", "won"], table, left=2),
    ])


def methods_section(a: Analysis) -> Section:
    """Intervals, tests and corrections behind every number, at the report's level."""
    if a.team is not None:
        return _team_methods(a)
    return Section("Methods", [Bullets([
        (f"Level: every interval is a two-sided {LEVEL} interval; a finding (\"edge found\", "
         f"\"matters\", \"differ\") means p < {ALPHA} in a two-sided test after correction: the seat "
         "tests of the player counts are Holm-adjusted together (the game's own tests name their "
         "correction below). Differences of rates are in percentage points (pp).",),
        ("Win shares with ties: a game's win is split equally among tied winners (1/k each), so a "
         "seat's win rate is its summed share over games and the seats' rates add up to 100%.",),
        (_interval_statement(a),),
        ("Counted rates (tied games, outcome shares and the game's own rates): "
         + ("Clopper-Pearson exact interval (--interval clopper-pearson); fractional win shares: "
            "Wilson." if a.method == "clopper-pearson" else
            "Wilson score interval (Clopper-Pearson with --interval clopper-pearson)."),),
        ("Seat test: Pearson chi-square of equal seat win shares (dof = n − 1); ties make it "
         "conservative. The seats it finds off fair: a normal test of each seat's per-game win "
         "shares against fair, Holm over every seat of the run. Seat gap: best minus worst seat, "
         "Wald interval with the multinomial covariance, simultaneous over every pair of seats by "
         "Bonferroni, so it holds for the pair chosen after looking (the gap itself is biased away "
         "from 0). A player count where no seat's share varied (every game a tie, or one seat always winning) is "
         "reported in words and not tested.",),
        (f"Detectable edge: the smallest deviation of one seat's win rate from 1/n that the seat "
         f"test finds with {POWER:.0%} power, at level 5% / (number of player counts tested) — "
         "Holm's first step, so Holm can only do better — at the least favourable arrangement "
         "(one seat off by the edge, ahead or behind, the others sharing the difference): the "
         "test's power summed over that seat's binomial win count, the other seats' part of the "
         "statistic taken as chi-square (stats.seat_test_power; simulated: 90.0-90.2% from 200 "
         "games a count up, docs/POWER.md). Ties evenly spread make the test conservative and "
         "raise the power a little.",),
        ("Tie rates across player counts: Pearson chi-square test of homogeneity on the games "
         "tied and not tied at each count.",),
        *(a.game_report.methods() if a.game is not None else []),
        ("Strategies: win rate per seat-game pooled over seats, same interval as the seats. A strategy "
         "holding several seats of a game has its seat-games there correlated (usually against each other, "
         "but copies of a deterministic strategy that tie move together; in a cooperative game they share "
         "the team's result), so its interval and its test against fair take the games as the units: the "
         "variance of its per-game total over its seats, from the seats' squares and the pairs table's cross "
         "sums (a competitive run written before those: seat-games as independent).",),
        ("Scores: mean with a normal interval from the observed variance "
         + ("of the per-game mean over seats (games are the independent units)"
            if a.clustered_scores else "over seat-games treated as independent")
         + "; quartiles read off the score histogram (the lower score where a quartile falls "
         "between two).",),
    ])])
