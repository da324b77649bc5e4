"""Strategies for Defenders of the Realm: declarations (parameters, defaults, bounds, docs).

Every seat plays its own hero, but the policy is a team's: ``coordinated`` looks at the whole
board (every hero's hand and place) and plays deterministically (it never draws), so a game
under it depends on the chance stream alone. ``random`` is the floor: each decision uniform
over its legal options from the seat's own stream (``1 + seat``).

The decisions (``docs/DEFENDERS.md`` gives each in full, both engines follow it):

- the day: ``random`` picks an action kind uniformly among the legal kinds (ending the day is
  one), then one of that kind's options uniformly (a destination, a card, a colour).
  ``coordinated``, in order: play a free special card whose trigger holds; attack the general
  here when the expected net hits of the heroes here reach its life plus ``attack_margin``;
  heal at ``heal_at`` life or less; when the whole team could kill a general (the one nearest
  Monarch City first) and this hero holds dice for it, go there (and wait, clearing its
  minions); when the hand's dice against the target general (the one nearest the city) are
  fewer than ``inn_below``, draw at an inn in reach; else do the day's best work in reach: at
  each location, the minions its remaining actions there are expected to remove (weighted up
  by ``w_overrun`` where one more minion overruns and by ``w_city`` next to Monarch City),
  ``w_taint`` per crystal it expects to cleanse, ``w_general`` for a general it can kill, less
  ``w_distance`` a step; else head for the location of most value less its distance; else end
  the day. Moving, it spends a travel card only when the card saves ``travel_saving`` actions
  over walking, the card of least worth (dice, +3 if it can fight the target general);
- commitments to a general's combat: ``random`` each eligible card with probability 1/2;
  ``coordinated`` every eligible card but Battle Luck, which it keeps for the reroll;
- Battle Luck, night cards (All Is Quiet, Militia Secures Area, Strong Defenses) and the
  Wizard's Wisdom: ``random`` each with probability 1/2 when it may; ``coordinated`` on its
  trigger (a general one step from Monarch City, a line that would overrun or reach Monarch
  City, a general that would reach it);
- the Sorceress' shape and the Eagle Rider's style at the start of their turn; the cards
  discarded to the hand limit (``coordinated``: the card of least worth: dice, +2 for a living
  general's colour or any, +3 for a special card, +3 for the target general's colour).

Secondary choices follow one documented default for every strategy (a special card's targets,
the Cleric's Turn Undead, the order of a group's rolls, and, by chance, the cards a penalty
takes and a dead hero's replacement).
"""
from balance.core.strategy import Param, StrategyInfo

RANDOM, COORDINATED = 0, 1
MAX_PARAMS = 9
# the parameter row of coordinated, in order (kernel and reference read it by these indices)
ATTACK_MARGIN, HEAL_AT, W_OVERRUN, W_CITY, W_GENERAL, W_TAINT, W_DISTANCE, TRAVEL_SAVING, INN_BELOW = range(MAX_PARAMS)

STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo("random", RANDOM, "Uniform over the legal options of every decision (a floor)."),
        StrategyInfo("coordinated", COORDINATED,
                     "A documented team policy: clear threats to Monarch City, heal, gather cards at inns, attack "
                     "a general when the team's expected hits reach its life. Never draws.",
                     params=(
                         Param("attack_margin", 0.5, -3.0, 6.0, "Attack a general when the expected net hits of "
                               "every hero there, committing every card of its colour, reach its life plus this."),
                         Param("heal_at", 2.0, 0.0, 6.0, "Heal wounds at this much life or less.", integer=True),
                         Param("w_overrun", 3.0, 0.0, 10.0, "Extra weight of the minions removed where one more "
                               "minion would overrun the location (it holds location_cap)."),
                         Param("w_city", 2.0, 0.0, 10.0, "Extra value per minion on Monarch City and the "
                               "locations next to it."),
                         Param("w_general", 6.0, 0.0, 20.0, "Value of a general the heroes there can kill, "
                               "beside the day's other work."),
                         Param("w_taint", 2.0, 0.0, 10.0, "Value of a taint crystal the hero expects to "
                               "remove (Heal the Land, Sanctify) where no minion stands."),
                         Param("w_distance", 0.5, 0.0, 5.0, "Cost of each step to the day's work (its value: "
                               "minions expected removed, weighted, plus crystals and a killable general)."),
                         Param("travel_saving", 2.0, 1.0, 4.0, "Spend a travel card only when it saves this many "
                               "actions over walking.", integer=True),
                         Param("inn_below", 2.0, 0.0, 12.0, "Visit an inn when the hand's dice against the "
                               "general nearest Monarch City are fewer than this.", integer=True),
                     ),
                     deterministic=True),
    )
}
