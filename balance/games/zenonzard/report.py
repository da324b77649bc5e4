"""zenonzard's own report sections: Force pairs and the life split they imply, deck colours
(tested against the average seat, and colour against colour), the decks' curves, how games
end, card strength (each card swapped for a vanilla stand-in, paired on the same games) beside
the descriptive played / drawn table; the verdict's Forces, Life, Colours, Curves and Cards
lines; their figures; the first player's win rate as a `balance ladder` measure.

Why the Force-pair and colour tests are causal: a run that draws its sides (no --side) draws
each seat's Force pair and deck from the game's side stream, independently of everything else
in the game, so the difference between the seats holding a pair (or a colour) and the average
seat is the pair's (the colour's) doing. With sides given, the numbers describe the seats that
held them and say so. The curve features are not assigned on their own (a deck's mean cost
comes with its cards), so their slopes are associations across randomly dealt decks.

Why the colour and curve tests count decks, not seat-games: a generated pool holds a dozen
decks of a colour, and every game of one deck shares that deck's luck of the draw. Counted as
independent seat-games, the committed run's 12 decks a colour gave intervals of -/+0.4 pp where
the decks' own spread gives -/+1.5 to 3.4 pp, and called every colour different from the average.

The generic run report (balance.analysis.report) calls these through the game's declaration
(balance.core.game.OPTIONAL_PARTS["report"]).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from balance.analysis import aggregate, plots, stats
from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Strong, Table, ci, count, num,
                                       p_phrase, pct, pp)
from balance.analysis.report import ALPHA, LEVEL, and_list, card_strength_lines, cards_measured, each_row
from balance.analysis.sides import DETECTABLE, ranked_lines, tested, tested_over_units
from balance.core import card_trials

FIGURES = ("force_pairs", "colour_matchups", "curve", "card_strength")
FEATURES = {"mean_cost": "mean cost of the field minions", "low_cost": "field minions of cost 1-2",
            "keywords": "field minions with a keyword"}


@dataclass
class ZenonzardAnalysis:
    """forces: per (players, Force) the win rate of the seats holding it in either slot, against
    the average seat's (``sides.tested``; both seats may draw the same Force, and such a game
    gives its two seat-games exactly one win, less spread than the test assumes: conservative);
    pairs: per (players, Force pair) the seats' win rate against the average seat's
    (``sides.tested``) with the player life it leaves (``player_life``) and its Forces lost
    per game; lives: the same test per player life; colours: per deck colours; matchups:
    colour against colour (rate of the row colour's seat); curves: the test per deck curve
    (low, standard, high; one row when the run had one curve); curve: per feature the win-rate
    slope with its interval and Holm-adjusted p; endings: per outcome its share and mean
    length; drawn: sides drawn per game (the tests are causal); sampled: the drawn decks were
    generated at random, so the colour and curve tests take the decks as their units
    (``decks_sampled``; their rows gain ``units`` and ``df``); unsupported: cards played
    without their text; card_effects: causal card strength (aggregate.card_effects), None when
    not measured; cards_played: per card the win rate in deck, drawn and played, a description."""

    forces: pl.DataFrame
    pairs: pl.DataFrame
    lives: pl.DataFrame
    colours: pl.DataFrame
    matchups: pl.DataFrame
    curves: pl.DataFrame
    curve: pl.DataFrame
    endings: pl.DataFrame
    drawn: bool
    unsupported: list[str]
    sampled: bool = False
    card_effects: pl.DataFrame | None = None
    cards_played: pl.DataFrame | None = None


def analyse(tables: dict, manifest: dict, method: str) -> ZenonzardAnalysis | None:
    """The game's frames from a run's tables, or None when the run lacks them."""
    if "forces" not in tables or "decks" not in tables:
        return None
    seats, forces, decks = tables["seats"], tables["forces"], tables["decks"]
    average = seats.group_by("players").agg(pl.col("win_share").sum() / pl.col("games").sum())
    pair_rows = forces.group_by("players", "forces", "player_life").agg(pl.col("games", "wins", "forces_lost").sum())
    pairs = tested(pair_rows.select("players", name="forces", games="games", win_share="wins"), average, method)
    pairs = pairs.join(pair_rows.select("players", name="forces", player_life="player_life",
                                        lost=pl.col("forces_lost") / pl.col("games")), on=["players", "name"])
    force_rows = (forces.with_columns(force=pl.col("forces").str.split("+")).explode("force")
                  .group_by("players", "force").agg(pl.col("games", "wins").sum()))
    singles = tested(force_rows.select("players", name="force", games="games", win_share="wins"), average, method)
    life_rows = pair_rows.group_by("players", "player_life").agg(pl.col("games", "wins").sum())
    lives = tested(life_rows.select("players", name=pl.format("life {}", "player_life"), games="games",
                                    win_share="wins"), average, method)
    by_deck = decks.group_by("players", "colours", "curve", "deck").agg(pl.col("games", "wins").sum())
    sampled = decks_sampled(manifest)
    colours = _deck_test(by_deck, "colours", "curve", average, method, sampled)
    curves = _deck_test(by_deck, "curve", "colours", average, method, sampled)
    cells = (decks.group_by("players", "colours", "opponent_colours").agg(pl.col("games", "wins").sum())
             .sort("colours", "opponent_colours"))
    matchups = aggregate.rate(cells, "wins", "games", "rate", method).rename(
        {"colours": "strategy", "opponent_colours": "opponent_strategy", "rate_lo": "lo", "rate_hi": "hi"})
    unsupported = sorted({c for run in manifest.get("runs", []) for c in run.get("unsupported", [])})
    return ZenonzardAnalysis(
        singles, pairs, lives, colours, matchups, curves, curve_slopes(decks), endings(tables["outcomes"], method),
        manifest.get("sides") == "drawn", unsupported, sampled,
        card_effects=(aggregate.card_effects(tables["card_strength"], tables.get(card_trials.UNITS_TABLE))
                      if "card_strength" in tables else None),
        cards_played=played_summary(tables["cards_played"], method) if "cards_played" in tables else None)


def decks_sampled(manifest: dict) -> bool:
    """Whether the run drew decks generated at random (sides drawn, rules ``decks`` other than
    ``reference``; as the engine's ``sampled``): then a colour's decks are a sample of the decks
    the generator deals. A run whose --side gave every deck drew none."""
    if manifest.get("sides", "drawn") != "drawn" and all("deck=" in str(s) for s in manifest.get("sides") or []):
        return False
    return any(run.get("rules", {}).get("decks", "reference") != "reference" for run in manifest.get("runs", []))


def _deck_test(by_deck: pl.DataFrame, name: str, stratum: str, average: pl.DataFrame, method: str,
               sampled: bool) -> pl.DataFrame:
    """A colour's (a curve's) seats against the average seat. Generated decks are the units
    (``sides.tested_over_units``, within the other feature's strata: the pool deals every colour
    on every curve equally often), so the answer is about the colour, not about the decks this
    deck seed generated; the fixed reference decks (or one given deck) keep the exact binomial
    test of the seat-games, a claim about those decks."""
    rows = by_deck.select("players", stratum, name=name, unit="deck", games="games", win_share="wins")
    if sampled:
        return tested_over_units(rows, average, method, stratum)
    return tested(rows.group_by("players", "name").agg(pl.col("games", "win_share").sum()), average, method)


def played_summary(played: pl.DataFrame, method: str) -> pl.DataFrame:
    """Per (players, card): the seats' win rate over the seat-games whose deck held it, those in
    which it was drawn and those in which it was played, each with its interval; drawn and
    played shares of the in-deck games. Cards never in a deck are left out."""
    pooled = (played.group_by("players", "card", "colours", "cost", maintain_order=True)
              .agg(pl.col("in_deck", "in_deck_won", "drawn", "drawn_won", "played", "played_won").sum())
              .filter(pl.col("in_deck") > 0))
    out = aggregate.rate(pooled, "in_deck_won", "in_deck", "in_rate", method)
    out = aggregate.rate(out, "drawn_won", "drawn", "drawn_rate", method)
    out = aggregate.rate(out, "played_won", "played", "played_rate", method)
    return out.with_columns(drawn_share=pl.col("drawn") / pl.col("in_deck"),
                            played_share=pl.col("played") / pl.col("in_deck"))


def curve_slopes(decks: pl.DataFrame) -> pl.DataFrame:
    """Per (players, feature): the change in the first player's win rate per unit of its
    deck's feature minus the opponent deck's. Every game once (the decks table's seat-0 rows,
    one per deck pairing): least squares of the first player's win (0/1) on the feature
    difference, with an intercept (the seat effect). A feature belongs to a deck, so the decks
    are the units: the games of one deck share its strength whatever its feature, and counting
    them as independent (the per-game HC0 error) made the slopes' errors 7.7 times too small
    on the committed run. The standard error is clustered by deck, a game belonging to both of
    its decks (``_deck_meat``), with a t-test on the decks less one degree of freedom; Holm
    over the features and player counts. ``spread``: the standard deviation of the
    difference; ``decks``: how many decks played."""
    from scipy.stats import t as student

    rows = []
    for (players,), g in decks.group_by("players", maintain_order=True):
        feature_of = g.group_by("deck").agg(*[pl.col(f).first() for f in FEATURES])
        first = (g.filter(pl.col("seat") == 0)
                 .join(feature_of, left_on="opponent_deck", right_on="deck", suffix="_opponent"))
        n = first["games"].to_numpy().astype(float)
        wins = first["wins"].to_numpy().astype(float)
        total = n.sum()
        for feature in FEATURES:
            x = first[feature].to_numpy().astype(float) - first[f"{feature}_opponent"].to_numpy().astype(float)
            xm = (n * x).sum() / total if total else 0.0
            sxx = (n * (x - xm) ** 2).sum()
            if total < 2 or sxx <= 0:  # one deck, or mirror decks: no difference to relate
                continue
            b = ((x - xm) * (wins - n * wins.sum() / total)).sum() / sxx
            fit = wins.sum() / total + b * (x - xm)
            # a row's score: its games' (x - xm) * residual summed, a win's residual 1 - fit, a loss's 0 - fit
            meat = _deck_meat(first["deck"], first["opponent_deck"], (x - xm) * (wins - n * fit))
            se = float(np.sqrt(meat) / sxx)
            df = pl.concat([first["deck"], first["opponent_deck"]]).n_unique() - 1
            if se <= 0 or df < 1:  # one deck a side, or no spread: nothing to measure the slope against
                continue
            half = float(student.ppf(0.5 + aggregate.CONFIDENCE / 2, df)) * se
            rows.append({"players": players, "feature": feature, "slope": float(b), "lo": b - half, "hi": b + half,
                         "p_value": float(2 * student.sf(abs(b) / se, df)), "games": int(total),
                         "spread": float(np.sqrt(sxx / total)), "decks": df + 1})
    schema = {"players": pl.Int64, "feature": pl.String, "slope": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
              "p_value": pl.Float64, "games": pl.Int64, "spread": pl.Float64, "decks": pl.Int64}
    out = pl.DataFrame(rows, schema=schema)
    p = out["p_value"].to_numpy()
    return out.with_columns(p_adjusted=pl.Series(stats.holm(p) if p.size else p, dtype=pl.Float64))


def _deck_meat(deck: pl.Series, opponent: pl.Series, score: np.ndarray) -> float:
    """The deck-clustered sum of score products over the rows (one per deck pairing) that share
    a deck, whichever seat it sat in: sum over i, j sharing a deck of s_i s_j. A deck's strength
    raises its scores as the first player's deck and, with the sign of x and of the residual
    both turned, as the opponent's: one cluster with two memberships, not two dimensions (the
    two-way sum had left their cross term out, 1.4 times too small an error). Summed per deck
    over both memberships, a pair of rows sharing both decks is counted twice, and a mirror row
    (one deck both seats) twice more against a row holding its deck and four times against its
    own deck's: those counts are taken back. Checked against the sum over every pair of rows
    (tests). Like any multi-way cluster sum it can come out negative with few decks (2 of 60
    small synthetic runs of 18 decks); then the per-deck sum with those pairs left counted twice,
    a sum of squares and larger, stands in (as Cameron, Gelbach & Miller fall back to a
    one-way sum)."""
    codes = pl.concat([deck, opponent]).rank("dense").to_numpy().astype(np.int64) - 1
    a, b = codes[:len(deck)], codes[len(deck):]
    d = int(codes.max()) + 1
    total = np.bincount(a, score, d) + np.bincount(b, score, d)
    mirror = a == b
    own = np.bincount(a[mirror], score[mirror], d)  # a mirror row's score, per deck
    others = total - 2 * own  # the other rows holding the deck
    pair = np.bincount((np.minimum(a, b) * d + np.maximum(a, b))[~mirror], score[~mirror], d * d)
    doubled = float((total ** 2).sum())
    meat = doubled - float((pair ** 2).sum() + (2 * others * own + 3 * own ** 2).sum())
    return meat if meat > 0 else doubled


def endings(outcomes: pl.DataFrame, method: str) -> pl.DataFrame:
    """Per (players, outcome): its share of the games with an interval, and the mean length."""
    g = outcomes.with_columns(total=pl.col("games").sum().over("players"))
    g = aggregate.rate(g, "games", "total", "share", method)
    return g.with_columns(mean_length=pl.when(pl.col("games") > 0)
                          .then(pl.col("length_sum") / pl.col("games")).otherwise(None))


# --------------------------------------------------------------------------------------------
# verdict


def verdict(a: ZenonzardAnalysis) -> list:
    """The verdict's Forces, Force pairs, Life and Colours blocks."""
    # the Forces meet this run's decks only: a Force's edge may differ with the decks it plays in
    pool = " with this run's decks" if a.sampled else ""
    how = ("each seat's Force pair and deck were drawn at random every game, so a difference is "
           "the {}'s doing" + pool if a.drawn else "the sides were given with --side, so "
           "these describe the seats that held them; draw the sides (no --side) for a causal answer")
    blocks = [Para((Strong("Forces"), f" (the 10 Forces: win rate of the seats holding the Force, in either slot "
                    f"of their pair, against the average seat's; {how.format('Force')}; exact binomial tests, "
                    "Holm over the Forces)."),),
              Bullets([_passives_simplified(), *ranked_lines(a.forces, "Force", ends=3, where="the Forces section")]),
              Para((Strong("Force pairs"), f" (the 45 pairs: win rate of the seats holding the pair "
                    f"against the average seat's; {how.format('pair')}; exact binomial tests, Holm over the "
                    "pairs)."),),
              Bullets(ranked_lines(a.pairs, "Force pair", ends=3, where="the Forces section")),
              Para((Strong("Life split"), " (a seat's player life is the total minus its two Forces' "
                    "lives: the pairs grouped by the life they leave, the same test, Holm over the "
                    "groups). Life comes with the pair, so a difference here belongs to the pairs, not to "
                    "the life total: to measure a life total, change it in a variant and compare."),),
              Bullets(ranked_lines(a.lives, "life split")),
              Para((Strong("Colours"), f" (the deck's mana colours: {_deck_units(a.colours, 'colour', 'curve')})."),),
              Bullets(ranked_lines(a.colours, "colour", ends=4, where="the Colours section"))]
    if a.curves.group_by("players").len()["len"].max() > 1:  # the run dealt decks on several curves
        blocks += [Para((Strong("Mana curves"), " (the drawn decks' curves, low, standard and high: "
                         f"{_deck_units(a.curves, 'curve', 'colour')})."),),
                   Bullets(ranked_lines(a.curves, "curve"))]
    cards = card_strength_lines(a.card_effects, "zenonzard")
    over_decks = a.card_effects is not None and "units" in a.card_effects.columns
    test = ("the generated decks that hold a card are its test's units, as for the colours: a t-test over "
            "them, Holm over every card" if over_decks else "paired test, Holm over every card")
    how = (" (causal, as the run's strategies play the deck: every copy of the card swapped, in the deck of the "
           "seat holding it, for a vanilla "
           "stand-in of the same cost and colours with its cost's median BP and DP; the same games played "
           f"again; {test})." if a.card_effects is not None else ".")
    blocks.append(Para((Strong("Cards"), how),))
    cautions = [c for c in (_one_deck_cards(a), _simplified_cards(a, cards)) if c]
    for caution in cautions:  # a caution comes before the lines it qualifies
        blocks.append(Para((Strong("Caution:"), " ", caution[0].lower() + caution[1:])))
    blocks.append(Bullets(cards))
    if a.unsupported:
        blocks.append(Para((Strong(f"{len(a.unsupported)} cards in this run's decks have text beyond "
                                   "the simulated card model"), " (played as their cost, colours, BP, DP "
                            "and keywords): every number here is for the game so simplified; the "
                            "Cards section lists them and ", Code("balance cards zenonzard --unsupported"),
                            " counts them by set and colour."),))
    return blocks


def _deck_units(frame: pl.DataFrame, noun: str, stratum: str) -> str:
    """How a colour (curve) line was tested: over its generated decks when the run drew them
    from a generated pool (a finding is then the colour's, and more decks, not more games,
    narrow it), else the seat-games' exact test (a claim about the decks played)."""
    if "units" not in frame.columns or frame.filter(pl.col("units") >= 2).is_empty():
        return f"the same test, Holm over the {noun}s"
    units = frame.filter(pl.col("units") >= 2)
    low, high = units["units"].min(), units["units"].max()
    within = f", within {stratum}s" if (units["units"] - units["df"] > 1).any() else ""  # df = decks - strata
    return (f"the seats' win rate against the average seat's, Holm over the {noun}s. The "
            f"{low if low == high else f'{low} to {high}'} generated decks of each {noun} are a sample of the "
            "decks the generator deals, and a deck's games share its luck of the draw, so the decks, not the "
            f"seat-games, are the test's units (a t-test{within}): a finding is the {noun}'s, not this deck "
            "seed's, and more decks (--set deck_pool=N), not more games, narrow it")


def _passives_simplified() -> tuple:
    """The caution before the Force lines: the Forces whose passive the v1 card model leaves
    without (full) effect, so their rates are those of their life and on-destroy effect."""
    from .catalogue import PASSIVE_IN_V1

    parts = [f"{name}'s{' passive' * (i == 0)} {what}" for i, (name, what) in enumerate(PASSIVE_IN_V1.items())]
    return (Strong("Caution:"), f" the simulated card model (v1) plays {and_list(parts)}: those Forces play "
            "as their life and on-destroy effect, so where they rank owes as much to the model as to the "
            "printed Force.")


def _one_deck_cards(a: ZenonzardAnalysis) -> str:
    """With the decks as the card test's units: how many decks hold a card, and which cards one
    deck alone holds (untested: one deck gives no spread to judge a card by). Empty otherwise."""
    if a.card_effects is None or "units" not in a.card_effects.columns or a.card_effects.is_empty():
        return ""
    decks = a.card_effects["units"]
    alone = int((decks == 1).sum())
    few = int(((decks >= 2) & (decks <= 4)).sum())
    parts = [f"this pool deals a card in {int(decks.median())} of its decks (median; {int(decks.min())} to "
             f"{int(decks.max())}), and a card's strength is judged over those decks"]
    if alone:
        parts.append(f"{alone} {'card is' if alone == 1 else 'cards are'} held by one deck only and not judged "
                     "(one deck gives no spread to judge a card by; the tables give their change in it)")
    if few:
        parts.append(f"{few} held by 2 to 4 decks can be found only by a change far beyond their decks' spread")
    return ("; ".join(parts) + ". More decks (--set deck_pool=N, up to 200), not more games, let more cards be "
            "judged.")


def _simplified_cards(a: ZenonzardAnalysis, lines: list) -> str:
    """What the card findings owe to cards whose text the model leaves out: their strength is
    that of their stats alone, and one whose stats equal its stand-in's changes no game by
    construction. Empty when no measured card is simplified."""
    if a.card_effects is None or not a.unsupported:
        return ""
    simple = {c.split(": ", 1)[-1] for c in a.unsupported}  # "white: Snow Mouse (id)" -> "Snow Mouse (id)"
    effects = a.card_effects.with_columns(simple=pl.col("card").is_in(list(simple)))
    found = effects.filter(pl.col("p_adjusted") < ALPHA)
    unchanged = effects.filter(pl.col("unchanged"))
    text = " ".join(str(p) for line in lines for p in line)
    named = [c for c in found.filter(pl.col("simple"))["card"].to_list() if f"the {c}" in text]
    parts = []
    if found["simple"].sum():
        shown = and_list([f"the {n.split(' (')[0]}" for n in named])  # "Ashbringer (id)" -> "the Ashbringer"
        among = f", {shown} named below among them" if named else ""
        k = int(found["simple"].sum())
        parts.append(f"Of the {found.height} cards found to change their seat's win rate, {k} "
                     f"{'has' if k == 1 else 'have'} text beyond the model{among}: their strength here is "
                     "that of their cost, colours, BP, DP and keywords, not of the printed card.")
    if unchanged["simple"].sum():
        k = int(unchanged["simple"].sum())
        such = "is such a card: as simulated it equals" if k == 1 else "are such cards: as simulated they equal"
        parts.append(f"{k} of the {unchanged.height} cards that changed no game {such} their stand-in, so "
                     "they change nothing by construction.")
    return " ".join(parts)


def variant_hint(a: ZenonzardAnalysis) -> dict | None:
    """No rule variant is proposed from these findings yet (a Force pair is a choice, not a rule)."""
    return None


def ladder_measures(tables: dict, manifest: dict) -> list[tuple]:
    """The game's columns of a `balance ladder` rung: the first player's win rate (with its
    Wilson interval: first_player_lo, _hi) and the share of games ended by deck-out; with empty
    tables, the columns and headings alone."""
    schema = {"players": pl.Int8, "first_player": pl.Float64, "first_player_lo": pl.Float64,
              "first_player_hi": pl.Float64}
    if "seats" not in tables:
        return [("first_player", "first player wins", pl.DataFrame(schema=schema)),
                ("deck_out", "deck-outs", pl.DataFrame(schema={"players": pl.Int8, "deck_out": pl.Float64}))]
    first = tables["seats"].filter(pl.col("seat") == 0).group_by("players").agg(pl.col("games", "win_share").sum())
    first = aggregate.rate(first, "win_share", "games", "first_player", "wilson").select(
        "players", "first_player", "first_player_lo", "first_player_hi")
    deck_out = tables["outcomes"].group_by("players").agg(
        (pl.col("games").filter(pl.col("outcome") == "deck-out").sum() / pl.col("games").sum()).alias("deck_out"))
    return [("first_player", "first player wins", first), ("deck_out", "deck-outs", deck_out)]


def methods() -> list[tuple]:
    return [
        ("Forces, Force pairs, life splits, colours and (when the run dealt several) mana curves: the "
         "seats holding one, their wins over their seat-games, against the average seat's wins per "
         "seat-game; two-sided exact binomial test (scipy.stats.binomtest), Holm over each table's "
         "rows (a family each, each at 5%: nothing holds the screen's families together). With sides "
         "drawn per game (the default) the pair and the deck are assigned at random, so the "
         "difference is the pair's or the deck's; a Force's is its own, averaged over the partners "
         "drawn with it; a colour's or a curve's is that of the decks dealt with it, their "
         "unmodelled card text included. Both seats may draw the same Force (or pair): such a game "
         "gives its two seat-games exactly one win, less spread than the binomial test assumes, so "
         "the test is conservative there. " + DETECTABLE,),
        ("Colours and curves of generated decks (rules decks other than reference): a colour's decks "
         "are a sample of the decks the generator deals, and the games of one deck share its luck of "
         "the draw, so the decks are the units (balance.analysis.sides.tested_over_units): the rate "
         "is the seats' wins over their seat-games; its standard error the cluster-robust (CR1) one "
         "over the decks, within strata of the other feature where each holds two decks or more (the "
         "pool deals every colour on every curve equally often, so the curves' spread is no sampling "
         "noise of a colour); a two-sided t-test and t interval on the decks less the strata degrees of "
         "freedom; Holm over the table's rows. A finding is then the colour's (the curve's) over the "
         "decks this generator deals, not this deck seed's. Its detectable difference "
         "is (t at the Bonferroni level + t at the power) times the standard error: more decks "
         "(--set deck_pool=N), not more games, shrink it. The fixed reference decks keep the exact "
         "binomial test: a claim about those decks.",),
        ("Curve features: least squares of the first player's win (0/1) on its deck's feature minus "
         "the opponent deck's, with an intercept. A feature belongs to a deck, so the standard error is "
         "clustered by deck, a game counted in the clusters of both its decks (multi-way clustering, "
         "Cameron, Gelbach & Miller 2011, with the two seats' memberships of one deck as one cluster), "
         "with a two-sided t-test on the decks less one degree of freedom; Holm over features and player "
         "counts. An association across randomly dealt decks: a feature comes with the cards that "
         "make it, so a slope is not the feature's own effect.",),
        ("Card strength (causal, with --card-strength): restricted play (Jaffe et al., AIIDE 2012) "
         "with a swap instead of a removal, so the deck keeps its size and curve. Every game in which "
         "a seat's deck holds the card is played again with every copy of it in that seat's deck "
         "swapped for a vanilla stand-in (the same cost, colours and colour part; the median BP and DP "
         "of the printed minions of its cost; no keyword), on the same random streams: the same sides, "
         "shuffles and strategy draws until the games part. When both seats hold it, each seat is "
         "swapped in a replay of its own. The paired per-game change of that seat's win share gets a "
         "normal interval from its observed variance and a two-sided z-test; Holm over every card. "
         "Negative: the card is worth more than an average card of its cost. With decks generated at random "
         "(rules decks other than reference) the trials are also kept per deck of the swapped seat "
         "(card_strength_units), and the decks that hold a card are its test's units: a card's change "
         "differs from deck to deck (the committed run measured the Ashbringer at -3.8 to -11.0 pp in "
         "its 4 decks), and the decks are a sample of what the generator deals, so the claim is the card's, "
         "not this pool's. The change stays the pooled paired mean; its standard error the cluster-robust "
         "one over those decks (balance.analysis.stats.cluster_ratio_se), with a t interval and test on "
         "the decks less one degree of freedom; a card one deck holds is not tested; Holm over the tested "
         "cards. Fixed decks (reference, or given by --side) keep the per-game test: a claim about those "
         "decks.",),
        ("Colour against colour, how games end and the played / drawn table: descriptions with "
         f"{aggregate.INTERVALS}.",),
    ]


# --------------------------------------------------------------------------------------------
# figures and sections


def figures(a: ZenonzardAnalysis, fig_dir: Path) -> dict[str, Path]:
    drawn = {"force_pairs": plots.named_rates(a.pairs, fig_dir / "force_pairs.png")}
    if a.matchups.height:
        drawn["colour_matchups"] = plots.matchups(a.matchups, fig_dir / "colour_matchups.png",
                                                  title="row colour's seat wins")
    drawn["curve"] = curve_figure(a.curve, fig_dir / "curve.png")
    if cards_measured(a.card_effects):
        drawn["card_strength"] = plots.card_restriction(
            plots.largest_changes(a.card_effects), fig_dir / "card_strength.png",
            xlabel="win-share change of the seat whose\ncopies became the stand-in (pp, 95% CI)")
    return drawn


def curve_figure(curve: pl.DataFrame, path: Path) -> Path:
    """Each feature's slope times its spread, with its interval: the first player's win-rate
    change for one standard deviation of the feature's difference. The slopes themselves are
    per unit of different things (1.0 of mean cost, one cheap minion), so on one axis they
    could not be compared: -5.4 pp per 1.0 of mean cost looked 4.5 times +1.2 pp per cheap
    minion, while over the differences the decks show they move the rate alike."""
    fig, ax = plt.subplots(figsize=(6, 0.5 * max(curve.height, 1) + 1.5), layout="constrained")
    y = np.arange(curve.height)
    spread = curve["spread"].to_numpy()
    plots.interval(ax, y, curve["slope"].to_numpy() * spread, curve["lo"].to_numpy() * spread,
                   curve["hi"].to_numpy() * spread, horizontal=True)
    ax.axvline(0, **plots.FAIR_STYLE)
    ax.set_yticks(y, [FEATURES[f] for f in curve["feature"].to_list()])
    ax.set_xlabel("first player's win-rate change per SD of the difference (pp, 95% CI)")
    plots.points(ax, "x")
    return plots.save(fig, path)


def _test_named(a: ZenonzardAnalysis, noun: str) -> str:
    if not a.sampled:
        return "exact binomial test, Holm"
    return (f"a t-test over each {noun}'s generated decks, with its t interval, Holm over the {noun}s (the decks "
            "are the units: a deck's games share its luck of the draw)")


def _decks_column(a: ZenonzardAnalysis) -> tuple:
    """The tables' "decks" column (each row's generated decks, its test's units) when sampled."""
    return (("decks", lambda r: str(r["units"])),) if a.sampled else ()


def _rate_table(frame: pl.DataFrame, what: str, extra=()) -> Table:
    heads = ["players", what, *[h for h, _ in extra], "seat-games", "win rate", f"{LEVEL} CI", "average seat",
             "difference", "adjusted p"]
    rows = [[str(r["players"]), Code(r["name"]), *[f(r) for _, f in extra], count(r["games"]), pct(r["rate"]),
             ci(r["lo"], r["hi"]), pct(r["expected"]), pp(r["difference"], signed=True), p_phrase(r["p_adjusted"])]
            for r in each_row(frame)]
    return Table(heads, rows, left=2)


def sections(a: ZenonzardAnalysis, figures: dict) -> list[Section]:
    pairs = a.pairs.sort("players", "rate", "name", descending=[False, True, False])
    forces = Section("Forces", [
        Para(("A Force's win rate is that of the seats whose pair held it, against the average seat's "
              "(exact binomial test, Holm over the Forces):",)),
        _rate_table(a.forces.sort("players", "rate", "name", descending=[False, True, False]), "Force"),
        Para(("A Force pair's win rate is that of the seats that played it, against the average "
              "seat's; player life: the total life minus the pair's two lives (the life split). "
              "Adjusted p: exact binomial test, Holm over the table's rows.",)),
        Figure("force_pairs", figures["force_pairs"], "Win rate by Force pair"),
        _rate_table(pairs, "Force pair", (("player life", lambda r: str(r["player_life"])),
                                          ("Forces lost / game", lambda r: num(r["lost"], 2)))),
        Para(("By the life the pair leaves (pairs pooled):",)),
        _rate_table(a.lives, "player life")])
    colour_blocks = [Para(("A colour's win rate is that of the seats whose deck had that mana, against the "
                           f"average seat's: {_test_named(a, 'colour')}.",)),
                     _rate_table(a.colours, "colours", _decks_column(a))]
    if "colour_matchups" in figures:
        colour_blocks += [
            Para(("Colour against colour: how often the seat with the row colour beat the seat with the "
                  f"column colour (all seats pooled; a description with {aggregate.INTERVALS}).",)),
            Figure("colour_matchups", figures["colour_matchups"], "Colour against colour" + plots.CELL_INTERVAL),
            Table(["colours", "opponent", "games", "win rate", f"{LEVEL} CI"],
                  [[Code(r["strategy"]), Code(r["opponent_strategy"]), count(r["games"]), pct(r["rate"]),
                    ci(r["lo"], r["hi"])] for r in each_row(a.matchups)], left=2)]
    curve_blocks = []
    if a.curves.group_by("players").len()["len"].max() > 1:
        curve_blocks += [Para(("Win rate by the deck's curve (decks.CURVES: the same 30 field slots a cost lower "
                               f"or higher on average), against the average seat's: {_test_named(a, 'curve')}. "
                               "With sides drawn per game the curve is dealt at random with the deck, and "
                               "every colour is on every curve, so a difference is the curve's doing.",)),
                         _rate_table(a.curves, "curve", _decks_column(a))]
    curve = Section("Mana curves", curve_blocks + [
        Para(("How the first player's win rate moves with its deck's curve features minus the "
              "opponent's: the slope per unit of difference (e.g. per 1.0 of mean cost), its "
              f"{LEVEL} interval and Holm-adjusted p, the decks as the units (the standard error clustered "
              "by each player's deck, so decks, not games, set the precision); spread: the standard "
              "deviation of the difference over the games. An association across randomly dealt decks, not the "
              "feature's own effect (it comes with the cards that make it). The figure draws each "
              "slope times its spread, the change for one standard deviation of the difference, so "
              "that features counted in different units compare.",)),
        Figure("curve", figures["curve"], "Win-rate change per standard deviation of each curve feature's "
               "difference"),
        Table(["players", "feature", "games", "decks", "spread", "slope", f"{LEVEL} CI", "adjusted p"],
              [[str(r["players"]), FEATURES[r["feature"]], count(r["games"]), str(r["decks"]), num(r["spread"], 2),
                pp(r["slope"], signed=True), ci(r["lo"], r["hi"], " pp"), p_phrase(r["p_adjusted"])]
               for r in each_row(a.curve)], left=2)])
    ends = Section("How games end", [
        Para(("The share of games each way ends (a player's life reaches 0; a player must draw from "
              f"an empty deck; the turn cap) with {aggregate.INTERVALS}, and their mean length in turns.",)),
        Table(["players", "ending", "games", "share", f"{LEVEL} CI", "mean turns"],
              [[str(r["players"]), r["outcome"], count(r["games"]), pct(r["share"]),
                ci(r["share_lo"], r["share_hi"]), num(r["mean_length"], 1)] for r in each_row(a.endings)], left=2)])
    out = [forces, Section("Colours", colour_blocks), curve, ends]
    if cards_measured(a.card_effects):
        out.append(card_section(a, figures))
    if a.cards_played is not None:
        out.append(played_section(a))
    if a.unsupported:
        out.append(Section("Cards", [
            Para((f"{len(a.unsupported)} cards of this run's decks have text beyond the simulated card "
                  "model (cost, colours, BP, DP and the eight keywords); they were played as those "
                  "numbers and keywords:",)),
            Bullets([(c,) for c in a.unsupported])]))
    return out


def card_section(a: ZenonzardAnalysis, figures: dict) -> Section:
    over_decks = "units" in a.card_effects.columns
    rows = [[str(r["players"]), Code(r["card"]), *([str(r["units"])] if over_decks else []), count(r["games"]),
             pct(r["unrestricted"]), pct(r["restricted"]), pp(r["difference"], signed=True),
             ci(r["lo"], r["hi"], " pp"), p_phrase(r["p_adjusted"])]
            for r in each_row(a.card_effects.sort("players", "difference", "card"))]
    interval = ("the t interval over the decks that hold the card (they are the units: a card's change differs "
                "from deck to deck, and the decks are a sample of what the generator deals; a card one deck "
                "holds has none); Holm over every card tested" if over_decks else
                "normal interval of the paired differences; Holm over every card")
    return Section("Card strength", [
        Para(("Each card swapped (every copy) for a vanilla stand-in of its cost and colours in the deck "
              "of the seat holding it, in every game where a seat does, the same games played again (common "
              "random numbers). Difference: that seat's win rate with the stand-in minus with the card "
              f"(negative: the card is better than an average card of its cost); {interval}. Strongest cards "
              "first.",)),
        Figure("card_strength", figures["card_strength"],
               f"Win-rate change with the stand-in (the {plots.CARDS_DRAWN} largest per player count)"),
        Table(["players", "card", *(["decks"] if over_decks else []), "games", "with it", "stand-in", "difference",
               f"{LEVEL} CI", "adjusted p"], rows, left=2)])


def played_section(a: ZenonzardAnalysis) -> Section:
    frame = a.cards_played.sort("players", "in_deck", "card", descending=[False, True, False])
    rows = [[str(r["players"]), Code(r["card"]), r["colours"], str(r["cost"]), count(r["in_deck"]),
             pct(r["drawn_share"]), pct(r["played_share"]), pct(r["in_rate"]), pct(r["drawn_rate"]),
             pct(r["played_rate"]), ci(r["played_rate_lo"], r["played_rate_hi"])] for r in each_row(frame)]
    return Section("Cards drawn and played (a description)", [
        Para(("For each field minion: the seat-games whose deck held it, the share of those in which it "
              "was drawn (reached the hand) and played (summoned), and the seats' win rate in deck, when "
              "drawn and when played (the \"played / drawn\" table of 17lands). This describes games; it is "
              "not a card's strength: a card is drawn and played more in longer games and in games going "
              "well. A card's strength is measured by the swap (simulate --card-strength). No test is made "
              "on this table.",)),
        Table(["players", "card", "colours", "cost", "in deck", "drawn", "played", "win rate in deck",
               "when drawn", "when played", f"{LEVEL} CI"], rows, left=3)])
