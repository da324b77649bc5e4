"""Wizards: every card ability (rules/smash-up-cards.md §9).

Grant A (Chronomage, Archmage, Time Loop, Winds of Change) goes through ``Game.grant_action``:
in the receiver's own Play Cards phase it adds to ``g.extra_actions``; anywhere else it is used
at once or lost (§1.5).

Where the spec leaves the option lists or the baseline open we decide (the kernel mirrors these):
- "Extra action now" (key ``extra-action-now``): the action cards in hand, hand order, then None;
  default the first one whose own default says play, else None.
- Neophyte: options ``"hand"``, ``"play"`` (only when the card may be played now), None (back on
  top [D27]).
- Mass Enchantment: the revealed actions in turn order after you (mandatory [D28]); the default,
  as the spec's, is the one whose own default leaves your V highest ("raises V most, else harms
  you least" is one ranking; ties: the first): each is played on a copy of the game, V read once
  that play is over. A Mass Enchantment played inside such a look-ahead (another player's: a
  card list that puts one in another faction, or the tests' Wizards at several seats) ranks by
  the first whose own default says play: one level of look-ahead, as the kernel's single saved
  state.
- Portal: one yes/no per revealed minion (reveal order); then the rest go back one at a time,
  each pick being the next card from the top (default: revealed order, the first on top).
- Sacrifice: options are your minions your action can affect, board order (mandatory; a Warbot
  is offered: it draws and survives). Default as the spec, ties: board order; when nothing fits
  (played anyway, e.g. by Neophyte) your lowest-power minion [D9]. Played when the default finds
  a Warbot or a free minion.
- Scry: one option per action name in the searched deck, in data order (catalogue order), the
  copy nearest the top; played when the searched deck holds an action.
- Portal and Mystic Studies are always played.
"""
from __future__ import annotations

from copy import deepcopy

from .. import abilities as ab
from ..baseline import V
from ..game import SPECIAL_ONLY


# ---- grant A -------------------------------------------------------------------------------
def playable_now(g, p, card) -> bool:
    """May ``p`` play this action card at once (Mark of Sleep [D36]; Hidden Ninja [D25])?"""
    return g.can_play_actions(p) and (card.name not in SPECIAL_ONLY or g.window is not None)


def would_play(g, p, card) -> bool:
    """The baseline would play this action now (its own default)."""
    return card.is_action and card.name not in SPECIAL_ONLY and ab.want(g, p, card)


def grant_action(g, p, k=1):
    """Give ``p`` ``k`` extra action plays (§1.5): ``Game.grant_action``."""
    g.grant_action(p, k)


# ---- minions -------------------------------------------------------------------------------
def archmage_want(g, p, x) -> bool:
    return g.can_play_actions(p) and any(would_play(g, p, c) for c in g.players[p].hand)


def chronomage(g, m):
    grant_action(g, m.controller)


def enchantress(g, m):
    g.draw(m.controller)


def neophyte(g, m):
    p = m.controller
    card = g.top(p)
    if card is None or not card.is_action:  # not an action: it stays on top
        return
    options = ["hand"] + (["play"] if playable_now(g, p, card) else [])
    default = options.index("play") if "play" in options and ab.want(g, p, card) else 0
    pick = g.choose(p, "Neophyte", options + [None], default)
    if pick == "hand":
        g.players[p].deck.remove(card)
        g.players[p].hand.append(card)
    elif pick == "play":
        g.play_action(p, card, source="deck", controller=p)
    # None: it stays on top [D27]


# ---- actions -------------------------------------------------------------------------------
def mass_enchantment(g, c, card):
    revealed = [g.top(q) for q in g.others(c)]  # §1.9 per deck
    actions = [x for x in revealed if x is not None and x.is_action and playable_now(g, c, x)]
    if not actions:
        return  # every revealed card simply stays on top
    # The look-ahead only finds the default: a seat that ignores it (random) is spared the copies,
    # as the kernel spares it.
    if len(actions) == 1 or g.looking_ahead or not getattr(g.strategies[c], "reads_default", True):
        default = next((i for i, x in enumerate(actions) if ab.want(g, c, x)), 0)
    else:
        after = [v_after_playing(g, c, x) for x in actions]
        default = after.index(max(after))  # the first of the best
    pick = g.choose(c, "Mass Enchantment", actions, default)
    g.play_action(c, pick, source="deck", controller=c)  # owner unchanged [D28]


def v_after_playing(g, c, x) -> int:
    """``c``'s V once it has played ``x`` (the top card of its owner's deck) as Mass Enchantment
    does, on a copy of the game: the copy's random streams are copies too, so the game itself
    draws nothing."""
    copy = deepcopy(g, {id(g.rules): g.rules, id(g.cat): g.cat})  # read-only: shared
    copy.looking_ahead = True
    copy.play_action(c, copy.top(x.owner), source="deck", controller=c)
    return V(copy, c)


def mystic_studies(g, c, card):
    g.draw(c, 2)


def _reveal(g, p, k):
    """Take up to ``k`` cards off the top, rebuilding an empty deck on the way [D17]."""
    out = []
    for _ in range(k):
        if not g.refill(p):
            break
        out.append(g.players[p].deck.pop())
    return out


def portal(g, c, card):
    pl = g.players[c]
    revealed = _reveal(g, c, 5)
    for x in [x for x in revealed if x.is_minion]:  # Pixie counts [D20]
        if g.may(c, "Portal", x, True):
            revealed.remove(x)
            pl.hand.append(x)
    order = []  # top first
    while revealed:
        order.append(revealed.pop(revealed.index(g.choose(c, "Portal:order", list(revealed), 0))))
    pl.deck.extend(reversed(order))


def _vp_without(g, p, m) -> list:
    """``p``'s vp_now on every base with minion ``m`` gone."""
    i = m.slot.minions.index(m)
    m.slot.minions.pop(i)
    out = [g.vp_now(s)[p] for s in g.slots]
    m.slot.minions.insert(i, m)
    return out


def _sacrifice_pick(g, c, mine):
    """The spec's default: a Warbot, else the highest-power minion whose loss costs no vp_now."""
    warbots = [i for i, m in enumerate(mine) if m.name == "Warbot"]
    if warbots:
        return max(warbots, key=lambda i: (g.power(mine[i]), -i))
    now = [g.vp_now(s)[c] for s in g.slots]
    free = [i for i, m in enumerate(mine) if _vp_without(g, c, m) == now]
    return max(free, key=lambda i: (g.power(mine[i]), -i)) if free else None


def _own_targets(g, c):
    return [m for m in g.minions_of(c) if g.affectable(m, c, True)]


def sacrifice(g, c, card):
    mine = _own_targets(g, c)
    if not mine:
        return
    default = _sacrifice_pick(g, c, mine)
    if default is None:
        default = min(range(len(mine)), key=lambda i: (g.power(mine[i]), i))
    m = g.choose(c, "Sacrifice", mine, default)
    g.draw(c, g.power(m))
    g.destroy([m], c, True)  # a Warbot survives


def sacrifice_want(g, p, card) -> bool:
    mine = _own_targets(g, p)
    return bool(mine) and _sacrifice_pick(g, p, mine) is not None


def _data_rank(g):
    names = [spec.name for cards in g.cat.factions.values() for spec in cards]
    return {name: i for i, name in reversed(list(enumerate(names)))}  # first listing wins


SCRY_FIRST = ("Time Loop", "Summon", "Mystic Studies")


def scry(g, c, card):
    pl = g.players[c]
    if not g.refill(c):  # §1.9: an empty deck is rebuilt before the search
        return
    rank = _data_rank(g)
    found = {}
    for x in reversed(pl.deck):  # from the top: the copy nearest the top stands for its name
        if x.is_action and x.name not in found:
            found[x.name] = x
    options = sorted(found.values(), key=lambda x: rank[x.name])
    if options:
        names = [x.name for x in options]
        default = next((names.index(n) for n in SCRY_FIRST if n in names), 0)
        pick = g.choose(c, "Scry", options, default)
        pl.deck.remove(pick)
        pl.hand.append(pick)
        g.log.append(("reveal", pick.name, c))
    g.shuffle(pl.deck)  # every search ends with a shuffle [D17]


def scry_want(g, p, card) -> bool:
    pl = g.players[p]
    searched = pl.deck or pl.discard
    return any(x.is_action for x in searched)


def summon(g, c, card):
    g.grant_minion(c, "M")


def summon_want(g, p, card) -> bool:
    minions = sum(1 for x in g.players[p].hand if x.is_minion)
    return minions >= 2 or (minions >= 1 and g.free_minion == 0)


def time_loop(g, c, card):
    grant_action(g, c, 2)


def time_loop_want(g, p, card) -> bool:
    return any(x is not card and would_play(g, p, x) for x in g.players[p].hand)


def winds_of_change(g, c, card):
    pl = g.players[c]
    pl.deck.extend(pl.hand)  # the card itself is being played: it is not in the hand
    pl.hand = []
    g.shuffle(pl.deck)
    g.draw(c, 5)
    grant_action(g, c)


def winds_want(g, p, card) -> bool:
    return sum(1 for x in g.players[p].hand if x is not card) <= 2


ab.TALENT["Archmage"] = (lambda g, p, x: True, lambda g, p, x: grant_action(g, p), archmage_want)
ab.ON_PLAY.update({"Chronomage": chronomage, "Enchantress": enchantress, "Neophyte": neophyte})
ab.ACTION.update({"Mass Enchantment": mass_enchantment, "Mystic Studies": mystic_studies,
                  "Portal": portal, "Sacrifice": sacrifice, "Scry": scry, "Summon": summon,
                  "Time Loop": time_loop, "Winds of Change": winds_of_change})
ab.WANT.update({"Mass Enchantment": lambda g, p, card: True,
                "Mystic Studies": lambda g, p, card: True,
                "Portal": lambda g, p, card: True,
                "Sacrifice": sacrifice_want, "Scry": scry_want, "Summon": summon_want,
                "Time Loop": time_loop_want, "Winds of Change": winds_want})
