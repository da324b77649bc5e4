"""avengers-cards' own report sections: causal card strength (restricted play), how cards
are used, and the villains; the verdict's Cards and Villains lines; their figures; and the
rule variant the report's "what to try next" proposes (the hand without the decisive card).

The generic run report (balance.analysis.report) calls these through the game's declaration
(balance.core.game.OPTIONAL_PARTS["report"]); nothing here is read by any other game.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import seaborn as sns

from balance.analysis import aggregate, plots
from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Strong, Table, ci,
                                       count, num, p_phrase, pct, pp, pvalue, rate_ci)
from balance.analysis.report import ALPHA, LEVEL, card_strength_lines, each_row

FIGURES = ("card_strength", "card_usage", "villains")


@dataclass
class CardAnalysis:
    """The game's frames: card_usage (descriptive), card_effects (causal; None when the run did
    not measure card strength), villains (the heroes' success per villain)."""

    card_usage: pl.DataFrame
    card_effects: pl.DataFrame | None
    villains: pl.DataFrame


def analyse(tables: dict, manifest: dict, method: str) -> CardAnalysis | None:
    """The game's frames from a run's tables, or None when the run lacks the cards table."""
    if "cards" not in tables or "villains" not in tables:
        return None
    return CardAnalysis(
        card_usage=card_usage(tables["cards"], method),
        card_effects=(aggregate.card_effects(tables["card_strength"]) if "card_strength" in tables else None),
        villains=villain_strength(tables["villains"], method),
    )


def figures(a: CardAnalysis, fig_dir: Path) -> dict[str, Path]:
    drawn = {}
    if a.card_effects is not None:
        drawn["card_strength"] = plots.card_restriction(a.card_effects, fig_dir / "card_strength.png")
    drawn["card_usage"] = card_usage_figure(a.card_usage, fig_dir / "card_usage.png")
    drawn["villains"] = villains_figure(a.villains, fig_dir / "villains.png")
    return drawn


def verdict(a: CardAnalysis) -> list:
    """The verdict's Cards and Villains blocks."""
    # a card's change is the strategy's use of it as much as the card's: the 1 read +8.07 pp under greedy, +1.44 pp
    # under a tuned greedy and +4.58 pp under random at 4 players (a designer's walkthrough)
    return [Para((Strong("Cards"), " (causal: the change in a seat's win rate when that "
                  "seat may not play the card, on the same games, as the run's strategies play the hand: a card "
                  "a strategy plays badly reads as one its seat does better without, and other play may move it)."),),
            Bullets(card_strength_lines(a.card_effects, "avengers-cards") if a.card_effects is not None else [(
                "Card strength was not measured in this run: add --card-strength to ",
                Code("balance simulate"), ". The Card strength section shows only how cards are "
                "used, an association that says nothing about which card is strong.")]),
            Para((Strong("Villains"), " (share of fights the heroes win, as the run's strategies play, with 95% CIs; "
                  "each end against the next villain in line by a two-proportion test, Holm over every such test)."),),
            Bullets(villain_lines(a.villains))]


def sections(a: CardAnalysis, figures: dict) -> list[Section]:
    return [card_section(a, figures), villain_section(a, figures)]


def variant_hint(a: CardAnalysis) -> dict | None:
    """The decisive card finding for "what to try next": the card whose removal (or holding
    back, as the run's mode of restricted play did: "when") changed its seat's win rate most
    (found by the Holm-corrected test), or None."""
    if a.card_effects is None or not a.card_effects.filter(pl.col("p_adjusted") < ALPHA).height:
        return None
    from . import GAME

    found = a.card_effects.filter(pl.col("p_adjusted") < ALPHA)
    top = found.row(int(found["difference"].abs().arg_max()), named=True)
    players, card = top["players"], top["card"]
    mode = top.get("when")
    if GAME.act(mode) == GAME.restrict_act:  # the card was removed from the hand
        why = (f"the {card} weakens the seat holding it at {players} players" if top["difference"] > 0
               else f"removing the {card} moves its seat's win rate most (by estimate) at {players} players")
    else:  # it was held back, not removed: say what was measured
        act = GAME.act(mode)[0].format(f"the {card}")
        why = (f"{act} raises its seat's win rate at {players} players" if top["difference"] > 0
               else f"{act} moves its seat's win rate most (by estimate) at {players} players")
    return {"players": players, "item": card, "why": why, "when": mode}


def ladder_measures(tables: dict, manifest: dict) -> list[tuple]:
    """The game's columns of a `balance ladder` rung: (column, heading, frame(players, column));
    with empty tables, the columns and headings alone."""
    if "villains" not in tables:
        empty = pl.DataFrame({"players": [], "heroes_success": []},
                             schema={"players": pl.Int8, "heroes_success": pl.Float64})
        return [("heroes_success", "heroes' success", empty)]
    frame = tables["villains"].group_by("players").agg(
        (pl.col("beaten").sum() / pl.col("fought").sum()).alias("heroes_success"))
    return [("heroes_success", "heroes' success", frame)]


def methods() -> list[tuple]:
    return [
        ("Card strength (causal): restricted play (Jaffe et al., AIIDE 2012). Each game of the run "
         "is played again with one seat denied the card, the seat rotated over equal blocks of "
         "games, on the same random streams; the paired per-game change of that seat's win share "
         "gets a normal interval from its observed variance and a two-sided z-test; Holm over every "
         "card and player count. \"Changed no game\": every paired difference was exactly 0.",),
        ("How cards are used: rates per play with their intervals; the win rate in games where "
         "a card won tokens is an outcome-conditioned association and is not tested.",),
    ]


# --------------------------------------------------------------------------------------------
# verdict lines


def villain_lines(villains: pl.DataFrame) -> list[tuple]:
    """Per player count, the hardest and the easiest villain, each against the next one in line:
    a two-proportion test of their beaten shares, Holm over every such test of the run. The
    villains of a count are fought in the same games, but their outcomes there are nearly
    uncorrelated (per-game correlations -0.13 to +0.09 between pairs, 3 players, random and
    greedy: `python scripts/verdict_power.py villains`), so the test takes them as independent
    samples. Where all villains are equal, an end and its neighbour are the closest pair of
    the order, so the test is conservative there: four exchangeable villains of one battle
    (tests) gave a false 'hardest' or 'easiest' in 4 of 1,000 greedy runs, against the 5%
    allowed. A count with two villains fought has one test; with one, none."""
    from balance.analysis import stats

    ends, p = [], []
    for (n,), g in villains.group_by("players", maintain_order=True):
        g = g.filter(pl.col("fought") > 0).sort("success_rate")
        rows = list(g.iter_rows(named=True))
        if not rows or (g["beaten"] == 0).all():
            ends.append((n, rows, []))
            continue
        pairs = [] if len(rows) < 2 else [(rows[0], rows[1])] + ([(rows[-1], rows[-2])] if len(rows) > 2 else [])
        for end, next_ in pairs:
            p.append(float(stats.two_proportion_test(end["beaten"], end["fought"], next_["beaten"],
                                                     next_["fought"])[2]))
        ends.append((n, rows, pairs))
    adjusted = iter(stats.holm(np.array(p)) if p else [])
    lines = []
    for n, rows, pairs in ends:
        if not pairs:
            only = len(rows) == 1 and rows[0]["beaten"]
            said = (("only ", Code(rows[0]["villain"]), f" was fought {_villain_facts(rows[0])}.") if only
                    else ("the heroes never beat a villain.",))
            lines.append((f"{n} players: ", *said))
            continue
        parts = [f"{n} players: "]
        for (end, next_), word, than in zip(pairs, ("hardest", "easiest"), ("less", "more")):
            q = next(adjusted)
            versus = (f", {than} than the next, " if q < ALPHA else ", not told apart from the next, ")
            if len(pairs) == 1:  # two villains: the other one is the easiest
                versus = (", less than the easiest, " if q < ALPHA else ", not told apart from the other, ")
            parts += ["; "] if len(parts) > 1 else []
            word = word if q < ALPHA else f"{word} by estimate"  # "hardest" only when told apart from the next
            parts += [f"{word} ", Code(end["villain"]), f" {_villain_facts(end)}{versus}", Code(next_["villain"]),
                      f" {pct(next_['success_rate'])} (adjusted {p_phrase(q)})"]
        lines.append((*parts, "."))
    return lines


def _villain_facts(row: dict) -> str:
    rate = rate_ci(row["success_rate"], row["success_rate_lo"], row["success_rate_hi"])
    return f"(battle {row['battle']}, strength {row['strength']}): beaten in {rate} of fights"



# --------------------------------------------------------------------------------------------
# sections


def card_section(a: CardAnalysis, figures: dict) -> Section:
    """Causal card strength (restricted play, when measured), then how cards are used."""
    blocks = []
    if a.card_effects is not None:
        when = a.card_effects["when"][0]
        situation = ("removed from its hand" if when == "always"
                     else "not playable before the last villain of a battle")

        def word(r):
            if r["unchanged"]:
                return "changed no game"
            if r["p_adjusted"] >= ALPHA:
                return "no detectable effect"
            return "matters" if r["difference"] < 0 else "better removed"

        rows = [[str(r["players"]), str(r["card"]), count(r["games"]), pct(r["unrestricted"]),
                 pct(r["restricted"]), pp(r["difference"], signed=True), ci(r["lo"], r["hi"], " pp"),
                 pvalue(r["p_value"]), pvalue(r["p_adjusted"]), word(r)]
                for r in each_row(a.card_effects.sort("players", "difference", "card"))]
        blocks += [
            Para(("How much a card is worth, measured by taking it away: every game of the run was "
                  f"played again with one seat's card {situation}, the seat rotated over equal "
                  "blocks of games, on the same shuffles and strategy draws (common random "
                  "numbers). The difference is that seat's win rate without the card minus with "
                  "it, paired game by game: negative means the card helps its holder (it matters), "
                  "positive that the holder does better without it. Holm correction over every "
                  "card test of the run.",)),
            Figure("card_strength", figures["card_strength"],
                   "Change in the denied seat's win rate, per card, with 95% intervals."),
            Table(["players", "card", "games", "win rate with it", "without it", "difference",
                   f"{LEVEL} CI", "p", "Holm p", "verdict"], rows, left=2),
        ]
    else:
        blocks.append(Para((Strong("Not measured: "), "this run has no card-strength table; run ",
                            Code("balance simulate ... --card-strength"), " (or ",
                            Code("balance restrict"), ") to measure what each card is worth.")))
    usage = [[str(r["players"]), str(r["card"]), count(r["played"]), pct(r["reward_rate"]),
              ci(r["reward_rate_lo"], r["reward_rate_hi"]), pct(r["cancel_rate"]), num(r["tokens_per_play"]),
              count(r["games_rewarded"]), pct(r["win_rate_rewarded"])]
             for r in each_row(a.card_usage)]
    blocks += [
        Para((Strong("How cards are used"), " (description, not strength): how often a play of "
              "each card won tokens or was cancelled by a tie, and the win rate of its player in "
              "games where it won tokens. That last rate is an association: winning tokens goes "
              "with winning whatever the card, and a card played when it is safe looks good. It "
              "carries no test and ranks nothing.")),
        Figure("card_usage", figures["card_usage"], "How cards are used: plays that won tokens "
               "and plays cancelled by a tie, with 95% intervals."),
        Table(["players", "card", "plays", "won tokens", f"{LEVEL} CI", "cancelled",
               "tokens per play", "games it won tokens", "win rate in those games"], usage, left=2),
    ]
    return Section("Card strength", blocks)


def villain_section(a: CardAnalysis, figures: dict) -> Section:
    """Heroes' success rate and token flow per villain."""
    rows = [[str(r["players"]), str(r["battle"]), Code(r["villain"]), str(r["strength"]), count(r["fought"]),
             count(r["beaten"]), pct(r["success_rate"]), ci(r["success_rate_lo"], r["success_rate_hi"]),
             num(r["tokens_per_fight"]), num(r["lost_per_fight"])] for r in each_row(a.villains)]
    return Section("Villains", [
        Para(("How often the heroes beat each villain, in battle then strength order, with tokens "
              "handed out (rewards and centre) and tokens lost per fight.",)),
        Figure("villains", figures["villains"], "Heroes' success rate per villain with 95% intervals."),
        Table(["players", "battle", "villain", "strength", "fights", "beaten", "success rate",
               f"{LEVEL} CI", "tokens per fight", "lost per fight"], rows, left=3),
    ])



# --------------------------------------------------------------------------------------------
# figures


# (column, y label): each label on short lines, so the two rows' labels do not run into each other
USAGE_ROWS = (("reward_rate", "plays that\nwon tokens"), ("cancel_rate", "plays cancelled\nby a tie"))


def card_usage_figure(frame: pl.DataFrame, path) -> Path:
    """How cards are used, per card value: the share of its plays that won tokens (top row)
    and the share that a tie cancelled (bottom row), in % with 95% intervals; one column per
    player count. Each row shares its axis across player counts, every panel the card axis.

    These describe play, not strength: how often a card wins tokens depends on how the
    strategies use it (card strength is measured by restricted play, ``plots.card_restriction``).

    frame: one row per (players, card) with reward_rate, reward_rate_lo, reward_rate_hi,
    cancel_rate, cancel_rate_lo, cancel_rate_hi (fractions), e.g. ``card_usage``.
    """
    groups = list(plots.by_players(frame))
    # A share of plays means the same at every player count, so each row shares its axis; the
    # two rows measure different things with different ranges, so they do not share with each
    # other. The shared card axis puts one card value at one place in every panel (the hands
    # differ: 3 players hold 2..7, 4 and 5 hold 1..6).
    fig, axes = plt.subplots(2, len(groups), figsize=(plots.PANEL_W * len(groups), 2 * plots.PANEL_H),
                             squeeze=False, sharex=True, sharey="row")
    colours = sns.color_palette(n_colors=len(USAGE_ROWS))
    cards = sorted(frame["card"].unique().to_list())
    for col, (players, g) in enumerate(groups):
        for row, (name, _) in enumerate(USAGE_ROWS):
            ax = axes[row, col]
            plots.interval(ax, g["card"], g[name], g[f"{name}_lo"], g[f"{name}_hi"], color=colours[row])
            ax.set_xticks(cards)
            plots.percent(ax)
        axes[0, col].set_title(f"{players} players")
        axes[-1, col].set_xlabel("card value")
    for row, (_, label) in enumerate(USAGE_ROWS):
        axes[row, 0].set_ylabel(f"{label}\n(95% CI)")
    fig.suptitle("How cards are used (not how strong they are)", fontsize="medium")
    return plots.save(fig, path)


def villains_figure(frame: pl.DataFrame, path) -> Path:
    """Heroes' success rate per villain with its interval, in battle then strength order, every
    panel on one shared rate axis.

    frame: ``villain_strength`` (players, villain, battle, strength, success_rate
    [_lo/_hi]); one panel per player count, colour = battle.
    """
    groups = list(plots.by_players(frame))
    n_villains = frame.group_by("players").len()["len"].max()
    # Shared: a villain's rate at 3 and at 5 players is the same kind of number, and how the
    # player count moves it is what a reader compares.
    fig, axes = plots.grid(len(groups), panel_h=0.2 * n_villains + 1.0, sharex=True)
    battles = sorted(frame["battle"].unique().to_list())
    colours = dict(zip(battles, sns.color_palette(n_colors=len(battles))))
    for ax, (players, g) in zip(axes, groups):
        g = g.sort("battle", "strength")
        y = np.arange(g.height)
        for battle in battles:
            mask = (g["battle"] == battle).to_numpy()
            if mask.any():
                plots.interval(ax, y[mask], g["success_rate"].to_numpy()[mask],
                          g["success_rate_lo"].to_numpy()[mask], g["success_rate_hi"].to_numpy()[mask],
                          horizontal=True, color=colours[battle], label=f"battle {battle}")
        ax.set_yticks(y, g["villain"].to_list(), fontsize="small")
        ax.set_ylim(g.height - 0.5, -0.5)  # battle 1, weakest villain first, at the top
        ax.set_title(f"{players} players")
        ax.set_xlabel("heroes beat the villain\n(95% CI)")
        plots.percent(ax, "x")
    plots.legend_outside(axes[-1], axes)
    return plots.save(fig, path)



# --------------------------------------------------------------------------------------------
# frames


def card_usage(cards: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """How cards are used: one row per (players, card), pooled over seats and strategies.

    Rates per play: rewarded, cancelled, lowest card of a defeat (Wilson, or Clopper-Pearson).
    ``win_rate_rewarded``: the win share of players in games where this card won them tokens.
    That is an association, not strength: winning tokens goes with winning whatever the card,
    and a card played when it is safe looks good. It carries no test; card strength is
    ``aggregate.card_effects`` (restricted play).
    """
    pooled = (cards.group_by("players", "card")
              .agg(pl.exclude("seat", "strategy").sum()).sort("players", "card"))
    out = pooled
    for counted, name in (("rewarded", "reward_rate"), ("cancelled", "cancel_rate"),
                          ("lowest_on_defeat", "defeat_rate")):
        out = aggregate.rate(out, counted, "played", name, method)
    out = aggregate.rate(out, "win_share_rewarded", "games_rewarded", "win_rate_rewarded", method)
    out = aggregate.rate(out, "win_share_played", "games_played", "win_rate_played", method)
    return out.with_columns(
        tokens_per_play=pl.col("tokens_gained") / pl.col("played"),
        lost_per_defeat=pl.col("tokens_lost") / pl.col("lowest_on_defeat"),
        fair=1.0 / pl.col("players"),
    )


def villain_strength(villains: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """One row per (players, villain): the heroes' success rate with CI and tokens per fight."""
    out = aggregate.rate(villains.sort("players", "battle", "strength"), "beaten", "fought", "success_rate", method)
    return out.with_columns(
        tokens_per_fight=(pl.col("reward_tokens") + pl.col("centre_tokens")) / pl.col("fought"),
        lost_per_fight=pl.col("tokens_lost") / pl.col("fought"),
    )


