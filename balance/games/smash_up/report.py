"""smash-up's own report sections: factions and faction pairs (tested against the average
seat), the faction-vs-faction matrix at 2 players, the bases, card strength by removal (when
the run measured it) and the cards the run could not simulate; the verdict's Factions, Pairs
and Cards lines; their figures.

Why the faction tests are causal: a run that draws its sides (no --side) draws every game's
faction pairs from a stream of their own, so which factions a seat holds is independent of
everything else in the game, a randomised experiment. A faction's win rate minus the average
seat's is then the faction's doing. With sides given (--side), a faction sits in the seats it
was given, so the same numbers describe those seats and say so.

The generic run report (balance.analysis.report) calls these through the game's declaration
(balance.core.game.OPTIONAL_PARTS["report"]); nothing here is read by any other game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from balance.analysis import aggregate, plots, stats
from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Strong, Table, ci, counted,
                                       count, num, p_phrase, pct, pp)
from balance.analysis.report import ALPHA, LEVEL, POWER, card_strength_lines, cards_measured, each_row
from balance.analysis.sides import DETECTABLE, ranked_lines, tested

FIGURES = ("factions", "faction_matchups", "bases", "card_strength")
MATRIX_PLAYERS = 2  # the faction-vs-faction matrix: every other seat is one opponent


@dataclass
class SmashAnalysis:
    """factions / pairs: per (players, faction or pair) the seats' win rate against the average
    seat's (``tested``); matchups: faction against faction at 2 players (None without 2-player
    games); bases: per (players, base); unsupported: cards played without their abilities;
    drawn: the sides were drawn per game (the tests are causal); drafted: the seats drafted
    them (factions=draft: the tests describe the draft's choices); card_effects: causal card
    strength (aggregate.card_effects with the card's faction), None when not measured;
    cards_played: per (players, card) the win rate in deck and when played (``played_summary``),
    a description; None for a run without the table; swap_example: a `balance compare` of a card
    swap with the run's strategy and first player count (``_swap_example``)."""

    factions: pl.DataFrame
    pairs: pl.DataFrame
    matchups: pl.DataFrame | None
    bases: pl.DataFrame
    unsupported: list[str]
    drawn: bool
    card_effects: pl.DataFrame | None = None
    drafted: bool = False
    cards_played: pl.DataFrame | None = None
    swap_example: str = ""


def analyse(tables: dict, manifest: dict, method: str) -> SmashAnalysis | None:
    """The game's frames from a run's tables, or None when the run lacks sides or bases."""
    seats = tables["seats"]
    if "bases" not in tables or "side" not in seats.columns or not (seats["side"] != "").any():
        return None
    factions, pairs = side_rates(seats, method)
    unsupported = sorted({c for run in manifest.get("runs", []) for c in run.get("unsupported", [])})
    drafted = any(run["rules"].get("factions") == "draft" for run in manifest.get("runs", []))
    return SmashAnalysis(
        factions=factions,
        pairs=pairs,
        matchups=faction_matchups(tables["pairs"], method) if "pairs" in tables else None,
        bases=base_summary(tables["bases"], tables.get("outcomes"), method),
        unsupported=unsupported,
        drawn=manifest.get("sides") == "drawn" and not drafted,
        drafted=drafted,
        card_effects=card_effects(tables["card_strength"]) if "card_strength" in tables else None,
        cards_played=played_summary(tables["cards_played"], method) if "cards_played" in tables else None,
        swap_example=_swap_example(manifest),
    )


def _swap_example(manifest: dict) -> str:
    """The Cards paragraph's example of a swap compared as a variant, played as the run played
    (its one strategy, its first player count) and asking the swapped faction's rate: without
    them it played `random` and named win_share_seat0, which a swap inside a faction barely moves."""
    import shlex

    runs = manifest.get("runs") or [{}]
    labels = {s["label"] for s in (runs[0].get("seatings") or [{}])[0].get("strategies", [])}
    strategy = f" -s {shlex.quote(labels.pop())}" if len(labels) == 1 else ""
    players = f" --players {runs[0]['players']}" if "players" in runs[0] else ""
    return (f"balance compare smash-up{players}{strategy} --variant default "
            """--variant 'x:swap=["Ninjas: Ninja Acolyte -> Shinobi"]' --primary win_share_Ninjas""")


def side_rates(seats: pl.DataFrame, method: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(factions, pairs): per (players, faction or pair) the win rate of the seats holding it
    against the average seat's (``sides.tested``, Holm over each frame's rows), from a run's
    seats table (the seats with a side)."""
    seats = seats.filter(pl.col("side") != "")
    pair_rows = seats.group_by("players", "side").agg(pl.col("games", "win_share").sum())
    faction_rows = (pair_rows.with_columns(faction=pl.col("side").str.split("+")).explode("faction")
                    .group_by("players", "faction").agg(pl.col("games", "win_share").sum()))
    average = seats.group_by("players").agg(pl.col("win_share").sum() / pl.col("games").sum())
    return (tested(faction_rows.rename({"faction": "name"}), average, method),
            tested(pair_rows.rename({"side": "name"}), average, method))


def played_summary(played: pl.DataFrame, method: str) -> pl.DataFrame:
    """Per (players, card), pooled over the run's blocks: the seats' win rate over the
    seat-games whose deck held the card (``in_rate``) and over those in which they played it
    (``played_rate``), each with its interval; ``played_share``: played / in deck;
    ``difference``: played_rate - in_rate. Cards never in a deck are left out."""
    pooled = (played.group_by("players", "card", "faction", maintain_order=True)
              .agg(pl.col("in_deck", "in_deck_won", "played", "played_won").sum())
              .filter(pl.col("in_deck") > 0))
    out = aggregate.rate(pooled, "in_deck_won", "in_deck", "in_rate", method)
    out = aggregate.rate(out, "played_won", "played", "played_rate", method)
    return out.with_columns(played_share=pl.col("played") / pl.col("in_deck"),
                            difference=pl.col("played_rate") - pl.col("in_rate"))


def card_effects(trials: pl.DataFrame) -> pl.DataFrame:
    """aggregate.card_effects (paired removal tests, Holm over every card and player count)
    with each card's faction."""
    from .catalogue import FACTIONS, load_catalogue

    faction = {c.name: f for edition in ("current", "2012") for f in FACTIONS
               for c in load_catalogue(edition).factions[f]}
    effects = aggregate.card_effects(trials)
    return effects.with_columns(faction=pl.col("card").replace_strict(faction, default="?"))


def faction_matchups(pairs: pl.DataFrame, method: str) -> pl.DataFrame | None:
    """Faction against faction at MATRIX_PLAYERS players: how often a seat holding the row
    faction outscored the seat holding the column faction (level scores count half), pooled
    over the pairs each was in. Each game counts once in a cell (a faction is in one seat)."""
    two = pairs.filter((pl.col("players") == MATRIX_PLAYERS) & (pl.col("side") != ""))
    if not two.height:
        return None
    cells = (two.with_columns(strategy=pl.col("side").str.split("+"),
                              opponent_strategy=pl.col("opponent_side").str.split("+"))
             .explode("strategy").explode("opponent_strategy")
             .group_by("players", "strategy", "opponent_strategy")
             .agg(pl.col("games", "ahead", "level").sum())
             .with_columns(points=pl.col("ahead") + pl.col("level") / 2)
             .sort("strategy", "opponent_strategy"))
    return aggregate.rate(cells, "points", "games", "rate", method).rename({"rate_lo": "lo", "rate_hi": "hi"})


def base_summary(bases: pl.DataFrame, outcomes: pl.DataFrame | None, method: str) -> pl.DataFrame:
    """Per (players, base): how often it scored once in play (``score_rate``, of its entries),
    the mean turns it was in play when it scored (normal CI), the mean VP at each place per
    scoring, and the share of finished games whose winner took their last VP from it
    (``decided``). Descriptive: a base's numbers depend on what was played on it."""
    pooled = bases.group_by("players", "base", maintain_order=True).agg(pl.exclude("players", "base").sum())
    finished = (outcomes.filter(pl.col("outcome") == "finished").group_by("players").agg(pl.col("games").sum())
                if outcomes is not None else
                pooled.group_by("players").agg(finished=pl.col("decided").sum()).rename({"finished": "games"}))
    out = (pooled.join(finished.rename({"games": "finished"}), on="players", how="left")
           .with_columns(pl.col("finished").fill_null(0)))
    out = aggregate.rate(out, "scored", "entered", "score_rate", method)
    out = aggregate.rate(out, "decided", "finished", "decided_rate", method)
    n = out["scored"].to_numpy().astype(float)
    mean, lo, hi = stats.mean_ci(out["turns_sum"].to_numpy().astype(float),
                                 out["turns_sq_sum"].to_numpy().astype(float), n, aggregate.CONFIDENCE)
    per = np.where(n > 0, n, np.nan)
    return out.with_columns(
        turns_mean=pl.Series(mean), turns_lo=pl.Series(lo), turns_hi=pl.Series(hi),
        vp1=pl.Series(out["vp_first"].to_numpy() / per), vp2=pl.Series(out["vp_second"].to_numpy() / per),
        vp3=pl.Series(out["vp_third"].to_numpy() / per),
    ).sort("players", "decided_rate", "base", descending=[False, True, False])


# --------------------------------------------------------------------------------------------
# verdict


def verdict(a: SmashAnalysis) -> list:
    """The verdict's Factions, Faction pairs and Cards blocks."""
    how = ("the factions of every game were drawn at random, so a difference is the faction's doing"
           if a.drawn else "the seats drafted their factions (factions=draft), so these describe "
           "the factions as drafted, chosen by the seats and not at random; draw them (the default "
           "factions=drawn) for a causal answer" if a.drafted else "the sides were given with "
           "--side, so these describe the seats that held them; draw the sides (no --side) for a "
           "causal answer")
    blocks = [Para((Strong("Factions"), f" (win rate of the seats holding the faction against the "
                    f"average seat's, as the run's strategies play it; {how}; exact binomial tests, "
                    "Holm over every faction and player count)."),),
              Bullets(ranked_lines(a.factions, "faction")),
              Para((Strong("Faction pairs"), f" ({_pairs_played(a.pairs)}; the same test, Holm over every pair and "
                    "player count; the three strongest and weakest of those found)."),),
              Bullets(ranked_lines(a.pairs, "pair", ends=3, where="the Factions section"))]
    cards = card_strength_lines(a.card_effects, "smash-up")
    if a.unsupported:
        one = len(a.unsupported) == 1
        cards.insert(0, (Strong(f"{counted(len(a.unsupported), 'card')} {'was' if one else 'were'} played without "
                                f"{'its' if one else 'their'} abilities"),
                         " (not simulated yet): ", ", ".join(a.unsupported), ". Every number in this "
                         f"report is for the game with {'that card' if one else 'those cards'} so weakened; ",
                         Code("balance cards smash-up --unsupported"), f" lists {'it' if one else 'them'}."))
    # a swap is a variant of its own: --set would give it to the baseline too
    how = ((" (causal, as the run's strategies play the faction: every copy of the card removed from the deck of "
            "the seat holding its faction, the same games played again; paired test, Holm over every card and player "
            "count). The deck is then smaller by those copies, so a card whose removal helps may only "
            "show that a thinner deck draws the faction's other cards sooner: swap it for another of "
            "them in a variant of its own to tell (",
            Code(a.swap_example),
            ").") if a.card_effects is not None else (".",))
    return blocks + [Para((Strong("Cards"), *how),), Bullets(cards)]


def _pairs_played(pairs: pl.DataFrame) -> str:
    """'the 28 pairs', or 'the 2 pairs played of 28' where --side fixed some."""
    from .catalogue import FACTIONS

    played, every = pairs["name"].n_unique(), math.comb(len(FACTIONS), 2)
    return f"the {every} pairs" if played == every else f"the {played} pairs played of {every}"


def variant_hint(a: SmashAnalysis) -> list[dict] | None:
    """Deck changes aimed at the factions the tests found strongest and weakest, each where the
    card that carries that faction was found too (the card whose removal costs its seat most):
    the strongest gives up one copy of it for one more of its card whose removal costs least;
    the weakest gives up one copy of that least card for one more of its carrier. Each is a
    ready ``--variant`` whose question (--primary) is whether the factions end up nearer their
    average (``side_distance``) and how that faction's win rate moves (``balance compare``
    measures every faction's). None when neither is found: with the factions not drawn (their rates are
    not the factions' doing), without card strength, or when no card of the faction is found to
    matter."""
    if a.card_effects is None or not a.drawn:
        return None
    hints = [h for h in (_swap_hint(a, strongest=True), _swap_hint(a, strongest=False)) if h is not None]
    return hints or None


def _swap_hint(a: SmashAnalysis, strongest: bool) -> dict | None:
    """The swap for the faction found furthest above (``strongest``) or below its share, at a
    player count whose cards were measured; None where there is none or its carrier is not found."""
    measured = a.card_effects["players"].unique().to_list()
    side = (pl.col("rate") > pl.col("expected")) if strongest else (pl.col("rate") < pl.col("expected"))
    found = a.factions.filter(pl.col("players").is_in(measured) & (pl.col("p_adjusted") < ALPHA) & side)
    if not found.height:
        return None
    gap = (found["rate"] - found["expected"]).abs()
    top = found.row(int(gap.arg_max()), named=True)
    n, faction = top["players"], top["name"]
    cards = (a.card_effects.filter((pl.col("players") == n) & (pl.col("faction") == faction))
             .sort("difference", "card"))  # ties in name order, whatever the sort
    if cards.height < 2:  # a run measuring only some cards (--card): nothing to swap between
        return None
    carrier = cards.row(0, named=True)
    if carrier["p_adjusted"] >= ALPHA or carrier["difference"] >= 0:
        return None
    spare_row = cards.row(cards.height - 1, named=True)
    spare, card = spare_row["card"], carrier["card"]
    share = (f"{100 * top['rate']:.2f}% against {100 * top['expected']:.2f}%, the largest "
             f"{'excess' if strongest else 'shortfall'} found")
    why = (f"the {faction} win {'above' if strongest else 'below'} their share at {n} players ({share}) and, of "
           f"their cards, removing the {card} costs them most by estimate ({-100 * carrier['difference']:.2f} pp)")
    least = (f"the {faction} card whose removal helps them most, by estimate" if spare_row["difference"] > 0 else
             f"the {faction} card whose removal does them least harm, by estimate")
    # the designer's question is whether the factions end up fairer; the faction's own rate
    # (whose move is all but certain) is asked beside it, not instead of it
    question = (f"its question (--primary) the factions' distance from their average and the {faction}' "
                "win rate, every faction's rate measured")
    if strongest:
        given, taken = card, spare
        hint = f"one {card} swapped for one more {spare} ({least}), {question}"
    else:
        given, taken = spare, card
        hint = f"one {spare} ({least}) swapped for one more {card}, {question}"
    # "oneInvader": one Invader fewer; "moreArchmage": one Archmage more ("They're" -> "Theyre")
    name = ("one" if strongest else "more") + "".join(ch for ch in card if ch.isalnum())
    return {"players": n, "item": card, "why": why, "variant": f'{name}:swap=["{faction}: {given} -> {taken}"]',
            "primary": ("side_distance", f"win_share_{faction}"), "hint": hint}


def ladder_measures(tables: dict, manifest: dict) -> list[tuple]:
    """The game's columns of a `balance ladder` rung, from a run whose factions were drawn for
    every game (the default: a faction's difference is then its doing): how many factions differ
    from the average seat (the Factions verdict's test: exact binomial, Holm over every faction
    and player count of the rung), the factions of the highest and the lowest win rate, each as
    "Robots +16.82 pp, p < 1e-6" (its difference from the average seat and adjusted p), and the
    difference every faction's test finds with POWER (NaN: a faction too rare to test). The
    first column's frame also carries what ``ladder_verdict`` reads, unshown: factions_differ,
    factions_tested (counts), highest_name, lowest_name. With empty tables, or factions not
    drawn, the columns alone (left out of the ladder: a rung of given or drafted factions says
    nothing of a faction's own strength)."""
    schema = {"players": pl.Int8, "factions_found": pl.String, "factions_differ": pl.Int64,
              "factions_tested": pl.Int64, "highest_faction": pl.String, "highest_name": pl.String,
              "lowest_faction": pl.String, "lowest_name": pl.String, "faction_detectable": pl.Float64}
    rows = []
    seats = tables.get("seats")
    drawn = (manifest.get("sides") == "drawn" and
             not any(run["rules"].get("factions") == "draft" for run in manifest.get("runs", [])))
    if drawn and seats is not None and "side" in seats.columns and (seats["side"] != "").any():
        for (players,), g in side_rates(seats, "wilson")[0].group_by("players", maintain_order=True):
            differ = int((g["p_adjusted"] < ALPHA).sum())
            high, low = (g.row(int(i), named=True) for i in (g["rate"].arg_max(), g["rate"].arg_min()))
            rows.append({"players": players, "factions_found": f"{differ} of {g.height}", "factions_differ": differ,
                         "factions_tested": g.height, "highest_faction": _faction_cell(high),
                         "highest_name": high["name"], "lowest_faction": _faction_cell(low), "lowest_name": low["name"],
                         # as the Factions line: NaN (a faction too rare to test) leaves no "any"
                         "faction_detectable": math.nan if g["detectable"].is_nan().any()
                         else float(g["detectable"].max())})
    frame = pl.DataFrame(rows, schema=schema)
    note = ("factions found: how many factions' seats win more or less often than the average seat "
            "(factions drawn at random for every game, so a difference is the faction's doing; exact "
            "binomial test, Holm over every faction and player count of the rung); highest, lowest: the "
            "factions of the highest and the lowest win rate by estimate (not a test between factions), "
            "each with its difference from the average seat and adjusted p; detects: a faction this far or "
            f"more from the average seat is found with {POWER:.0%} power, whichever it is (at Holm's first step)")
    found = frame.select("players", "factions_found", "factions_differ", "factions_tested", "highest_name",
                         "lowest_name")
    return [("factions_found", "factions found", found, "text", note),
            ("highest_faction", "highest", frame.select("players", "highest_faction"), "text"),
            ("lowest_faction", "lowest", frame.select("players", "lowest_faction"), "text"),
            ("faction_detectable", "detects", frame.select("players", "faction_detectable"), "pp")]


def _faction_cell(r: dict) -> str:
    """'Robots +16.82 pp, p < 1e-6': a faction, its difference from the average seat, its adjusted p."""
    return f"{r['name']} {pp(r['difference'], signed=True)}, {p_phrase(r['p_adjusted'])}"


def ladder_verdict(rungs: pl.DataFrame, labels: list[str]) -> list[tuple]:
    """The ladder's Factions lines, one per player count whose rungs measured the factions
    (``ladder_measures``; none from a ladder written before it): under which strategies some
    faction is found to differ from the average seat, and how many; under which none is, with
    what those rungs could have found; and the highest and the lowest faction by estimate under
    the strategies that found some, with the strategies they are so under (a faction on top
    under every strategy reads so). Nothing here says which strategy plays best: the ladder's
    Skill vs luck lines measure that."""
    from balance.analysis.document import and_list, code_list

    if "factions_differ" not in rungs.columns:
        return []

    def under(column, names):  # "Wizards under every strategy" or "Robots under `random`, Aliens under ..."
        by = {}
        for name in names:
            by.setdefault(rows[name][column], []).append(name)
        if len(by) == 1 and len(names) == len(rows):
            return [f"{next(iter(by))} under every strategy"]
        parts = []
        for faction, where in by.items():
            parts += ([", "] if parts else []) + [f"{faction} under ", *code_list(where, " and ")]
        return parts

    def power(names):  # a rung whose edge is NaN (a faction too rare to test) leaves no "any" to state
        edges = [float(rows[name]["faction_detectable"]) for name in names]
        if any(math.isnan(edge) for edge in edges):
            return "too few games for every faction's test to tell"
        return (f"{'it' if len(names) == 1 else 'each'} would have found a faction {pp(max(edges))} or more "
                f"from the average with {POWER:.0%} power")

    test = "exact binomial tests, Holm over each rung's factions and player counts"
    lines = []
    for (players,), g in rungs.filter(pl.col("factions_differ").is_not_null()).group_by("players",
                                                                                         maintain_order=True):
        rows = {r["strategy"]: r for r in g.iter_rows(named=True)}
        named = [label for label in labels if label in rows]
        some = [x for x in named if rows[x]["factions_differ"]]
        none = [x for x in named if not rows[x]["factions_differ"]]
        if not some:
            lines.append((f"{players} players: ", Strong("no faction is found to differ"), " from the average "
                          f"seat under any strategy of the ladder ({test}); {power(none)}.",))
            continue
        of = and_list(sorted({rows[x]["factions_tested"] for x in some}))
        line = [f"{players} players: ", Strong("factions differ"), " from the average seat under ",
                *(["every strategy of the ladder"] if not none else code_list(some, " and ")),
                f" ({and_list(rows[x]['factions_differ'] for x in some)} of {of} found; {test})"]
        if none:
            line += ["; none is found under ", *code_list(none, " and "), f" ({power(none)})"]
        line += [". Highest by estimate: ", *under("highest_name", some), "; lowest: ",
                 *under("lowest_name", some), "."]
        lines.append(tuple(line))
    return lines


def methods() -> list[tuple]:
    return [
        ("Factions and faction pairs: the seats holding one, their wins over their seat-games, "
         "against the average seat's wins per seat-game at the same player count; two-sided exact "
         "binomial test (scipy.stats.binomtest), Holm over every row of the table (factions and "
         "pairs are separate families). With sides drawn per game (the default) the faction is "
         "assigned at random, independently of the rest of the game, so the difference is causal. "
         + DETECTABLE,),
        ("Card strength (causal, with --card-strength): restricted play (Jaffe et al., AIIDE 2012). "
         "Every game in which a seat's pair holds the card's faction is played again with every "
         "copy of the card removed from that seat's deck, on the same random streams: the same "
         "sides, the same shuffle draws (the card is shuffled in and then taken out, so the other "
         "cards keep their order) and the same strategy draws until the games part. The paired "
         "per-game change of that seat's win share gets a normal interval from its observed "
         "variance and a two-sided z-test; Holm over every card and player count. \"Changed no "
         "game\": every paired difference was exactly 0. A removal makes the deck thinner, so a "
         "weak card's removal can help: the test answers \"is the deck better with this card "
         "than without it\".",),
        (f"Faction against faction (2 players) and the bases: descriptions with {aggregate.INTERVALS}; "
         "the mean turns to score with a normal interval from the observed variance.",),
    ]


# --------------------------------------------------------------------------------------------
# figures and sections


def figures(a: SmashAnalysis, fig_dir: Path) -> dict[str, Path]:
    drawn = {"factions": plots.named_rates(a.factions, fig_dir / "factions.png")}
    if a.matchups is not None:
        drawn["faction_matchups"] = plots.matchups(a.matchups, fig_dir / "faction_matchups.png",
                                                   title="row faction outscores column faction")
    drawn["bases"] = bases_figure(a.bases, fig_dir / "bases.png")
    if cards_measured(a.card_effects):
        drawn["card_strength"] = plots.card_restriction(plots.largest_changes(a.card_effects),
                                                        fig_dir / "card_strength.png")
    return drawn


def bases_figure(frame: pl.DataFrame, path: Path) -> Path:
    """Share of finished games each base decided, with its interval (the bars had none), one
    colour per player count as in the other figures, the bases in order of their highest share."""
    order = (frame.group_by("base").agg(pl.col("decided_rate").max())
             .sort("decided_rate", "base", descending=[True, False])["base"].to_list())
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(order) + 1.5), layout="constrained")
    groups = list(plots.by_players(frame))
    for i, (players, g) in enumerate(groups):
        y = np.array([order.index(b) for b in g["base"]]) + (i - (len(groups) - 1) / 2) * 0.2
        plots.interval(ax, y, g["decided_rate"], g["decided_rate_lo"], g["decided_rate_hi"], horizontal=True,
                       color=f"C{i}", label=f"{players} players")
    ax.set_yticks(range(len(order)), plots.names(order))
    ax.invert_yaxis()
    ax.set_xlabel("share of finished games whose winner took the last VP there (95% CI)")
    plots.percent(ax, "x")
    plots.legend_outside(ax)
    return plots.save(fig, path)


def sections(a: SmashAnalysis, figures: dict) -> list[Section]:
    out = [faction_section(a, figures), base_section(a, figures)]
    out += [card_section(a, figures)] if cards_measured(a.card_effects) else []
    return out + ([played_section(a)] if a.cards_played is not None else [])


def played_section(a: SmashAnalysis) -> Section:
    frame = a.cards_played.sort("players", "difference", "card", descending=[False, True, False], nulls_last=True)
    rows = [[str(r["players"]), Code(r["card"]), r["faction"], count(r["in_deck"]), pct(r["played_share"]),
             pct(r["in_rate"]), pct(r["played_rate"]), ci(r["played_rate_lo"], r["played_rate_hi"]),
             pp(r["difference"], signed=True)] for r in each_row(frame)]
    return Section("Cards played (a description)", [
        Para(("For each card: the seat-games whose deck held it, the share of those in which the "
              "seat played it (from its own deck, at least once), and the seats' win rate in deck "
              "and when played (the \"played / in deck\" table of 17lands). This describes games; "
              "it is not a card's strength: a card gets played more in games that are going well "
              "(more cards drawn, a longer game), and a card that only helps a winning board looks "
              "strong here. A card's strength is measured by removing it (simulate --card-strength, "
              "or balance restrict smash-up). No test is made on this table.",)),
        Table(["players", "card", "faction", "in deck", "played", "win rate in deck",
               "when played", f"{LEVEL} CI", "difference"], rows, left=3)])


def card_section(a: SmashAnalysis, figures: dict) -> Section:
    rows = [[str(r["players"]), Code(r["card"]), r["faction"], count(r["games"]), pct(r["unrestricted"]),
             pct(r["restricted"]), pp(r["difference"], signed=True), ci(r["lo"], r["hi"], " pp"),
             p_phrase(r["p_adjusted"])]
            for r in each_row(a.card_effects.sort("players", "difference", "card"))]
    return Section("Card strength", [
        Para(("Each card removed (every copy) from the deck of the seat whose faction pair holds "
              "it, in every game where a seat does, the same games played again (common random "
              "numbers). Difference: that seat's win rate without the card minus with it "
              "(negative: the card helps its seat); normal interval of the paired differences; "
              "Holm over every card and player count. Most harmful removals first.",)),
        Figure("card_strength", figures["card_strength"],
               f"Win-rate change without the card (the {plots.CARDS_DRAWN} largest per player count)"),
        Table(["players", "card", "faction", "games", "with it", "without", "difference",
               f"{LEVEL} CI", "adjusted p"], rows, left=3)])


def _rate_table(frame: pl.DataFrame, what: str) -> Table:
    return Table(["players", what, "seat-games", "win rate", f"{LEVEL} CI", "average seat", "difference",
                  "adjusted p"],
                 [[str(r["players"]), Code(r["name"]), count(r["games"]), pct(r["rate"]), ci(r["lo"], r["hi"]),
                   pct(r["expected"]), pp(r["difference"], signed=True), p_phrase(r["p_adjusted"])]
                  for r in each_row(frame)], left=2)


def faction_section(a: SmashAnalysis, figures: dict) -> Section:
    blocks = [Para(("A faction's win rate is that of the seats that held it, against the average "
                    "seat's at the same player count. Adjusted p: exact binomial test, Holm over "
                    "the table's rows.",)),
              Figure("factions", figures["factions"], "Win rate by faction"),
              _rate_table(a.factions, "faction"),
              Para(("Faction pairs (the side a seat played):",)),
              _rate_table(a.pairs.sort("players", "rate", "name", descending=[False, True, False]), "pair")]
    if a.matchups is not None and "faction_matchups" in figures:
        blocks += [Para((f"Faction against faction at {MATRIX_PLAYERS} players: how often the seat "
                         "holding the row faction outscored the one holding the column faction "
                         "(level scores count half; 50% is even). Each cell pools the pairs the two "
                         f"factions were in; a description with {aggregate.INTERVALS}, not tested cell "
                         "by cell.",)),
                   Figure("faction_matchups", figures["faction_matchups"],
                          "Faction against faction" + plots.CELL_INTERVAL),
                   Table(["faction", "opponent", "games", "score", f"{LEVEL} CI"],
                         [[Code(r["strategy"]), Code(r["opponent_strategy"]), count(r["games"]), pct(r["rate"]),
                           ci(r["lo"], r["hi"])] for r in each_row(a.matchups)], left=2)]
    return Section("Factions", blocks)


def base_section(a: SmashAnalysis, figures: dict) -> Section:
    rows = [[str(r["players"]), r["base"], count(r["entered"]), pct(r["score_rate"]),
             ci(r["score_rate_lo"], r["score_rate_hi"]), num(r["turns_mean"], 1),
             num(r["vp1"], 1), num(r["vp2"], 1), num(r["vp3"], 1), pct(r["decided_rate"]),
             ci(r["decided_rate_lo"], r["decided_rate_hi"])] for r in each_row(a.bases)]
    return Section("Bases", [
        Para(("Per base: times it came into play; the share of those it was scored; the mean "
              "turns it had been in play when scored; the mean VP its 1st, 2nd and 3rd place took "
              "per scoring; and the share of finished games whose winner took their last VP there "
              "(the base that decided the game). A description: a base's numbers depend on what "
              "the factions in play did on it.",)),
        Figure("bases", figures["bases"], "Bases that decide games"),
        Table(["players", "base", "in play", "scored", f"{LEVEL} CI", "turns to score", "VP 1st",
               "VP 2nd", "VP 3rd", "decided", f"{LEVEL} CI"], rows, left=2)])
