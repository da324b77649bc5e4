"""Zombies: every card ability (rules/smash-up-cards.md §10).

Already in the core (``game.py``), not here: Tenacious Z from the discard pile
(``Game.minion_moves``, once per turn, no grant used); Overrun's "other players cannot play
minions here" (``minion_allowed``); the Mdisc and M∅ grants (``grant_for``); playing through
They're Coming To Get You (``do_move`` "ctgy": a generic M grant, else the free play).

Choices the spec leaves open, decided here (the kernel mirrors them):
- Option orders: cards in discard-pile order (bottom first), bases in slot order; a "may" ends
  with None. "Highest printed power" ties go to the first card in that order.
- Zombie Lord: one choice per listed base, in slot order (key "Zombie Lord"), over the eligible
  discard minions allowed there (Overrun, Block the Path), then None.
- Walker: a "may" to discard the top card (None keeps it on top).
- Grave Robbing: "data order" = the faction order of the card list, then the card's place in its
  faction.
- Lend a Hand: one "may" per discard card in pile order (key "Lend a Hand"); the chosen cards
  join the deck, which is then shuffled.
- Mall Crawl / Not Enough Bullets: the name is chosen among the names present (deck / discard
  minions), in data order; then the number of copies, offered from all down to 1, then None (0).
  Mall Crawl takes the copies from the top of the deck down (the deck is shuffled after);
  Not Enough Bullets from the top of the discard pile down. Not Enough Bullets ties: data order.
  Mall Crawl with no minion in the deck defaults to the name with most copies (data order).
- Outbreak: "hold >= 2 minions" counts minion cards in hand (Pixie included).
- They're Coming To Get You: default host is PLACE for your best discard minion (else best hand
  minion, else the smallest gap); the card is always played (its Default names no hold).
"""
from __future__ import annotations

from .. import abilities as ab
from ..baseline import place
from .tricksters import _best_card, _smallest_gap, lead_host


def _data_rank(g, card):
    for fi, cards in enumerate(g.cat.factions.values()):
        for ci, spec in enumerate(cards):
            if spec.name == card.name:
                return (fi, ci)
    return (len(g.cat.factions), 0)


def _names_in_data_order(g, cards):
    first = {}
    for c in cards:
        first.setdefault(c.name, c)
    return sorted(first, key=lambda n: _data_rank(g, first[n]))


def _take_copies(g, p, key, pile, name):
    """Choose how many copies of ``name`` to take from ``pile`` (all by default), from its end."""
    k = sum(1 for c in pile if c.name == name)
    n = g.choose(p, key, list(range(k, 0, -1)) + [None], 0) or 0
    taken = []
    for i in range(len(pile) - 1, -1, -1):
        if len(taken) == n:
            break
        if pile[i].name == name:
            taken.append(pile.pop(i))
    return taken


# ---- 1. Zombie Lord --------------------------------------------------------------------------
def zombie_lord(g, m):
    p = m.controller
    listed = [s for s in g.slots if not any(x.controller == p for x in s.minions)]  # fixed now
    while listed:  # the player picks the order (the baseline's: slot order)
        s = g.choose(p, "Zombie Lord: base", listed, 0)
        listed.remove(s)
        if s not in g.slots:
            continue
        options = [c for c in g.players[p].discard
                   if c.is_minion and c.power <= 2 and g.minion_allowed(p, c, s)]
        if not options:
            continue
        card = g.choose(p, "Zombie Lord", options + [None], _best_card(options))
        if card is not None:
            g.play_minion(p, card, s, "discard")


# ---- 2. Grave Digger -------------------------------------------------------------------------
def grave_digger(g, m):
    p = m.controller
    pl = g.players[p]
    options = [c for c in pl.discard if c.is_minion]
    if options:
        card = g.choose(p, "Grave Digger", options + [None], _best_card(options))
        if card is not None:
            pl.discard.remove(card)
            pl.hand.append(card)


# ---- 4. Walker -------------------------------------------------------------------------------
def walker(g, m):
    p = m.controller
    top = g.top(p)
    if top is None:
        return
    if g.may(p, "Walker", top, top.is_minion and top.power <= 2) is not None:
        g.players[p].deck.pop()
        g.players[top.owner].discard.append(top)


# ---- 5. Grave Robbing ------------------------------------------------------------------------
def _robbing_default(g, cards) -> int:
    minions = [i for i, c in enumerate(cards) if c.is_minion]
    if minions:
        return max(minions, key=lambda i: (cards[i].power, -i))
    return min(range(len(cards)), key=lambda i: (_data_rank(g, cards[i]), i))


def grave_robbing(g, c, card):
    pl = g.players[c]
    if pl.discard:
        pick = g.choose(c, "Grave Robbing", list(pl.discard), _robbing_default(g, pl.discard))
        pl.discard.remove(pick)
        pl.hand.append(pick)


def grave_robbing_want(g, p, card) -> bool:
    return any((c.is_minion and c.power >= 3) or c.kind == "action" for c in g.players[p].discard)


# ---- 6. Lend a Hand --------------------------------------------------------------------------
def lend_a_hand(g, c, card):
    pl = g.players[c]
    chosen = [x for x in list(pl.discard) if g.may(c, "Lend a Hand", x, True) is not None]
    for x in chosen:
        pl.discard.remove(x)
        pl.deck.append(x)
    if chosen:
        g.shuffle(pl.deck)


# ---- 7. Mall Crawl ---------------------------------------------------------------------------
def _crawl_default(g, names, deck) -> int:
    count = {n: sum(1 for c in deck if c.name == n) for n in names}
    kind = {c.name: c for c in deck}
    minions = [i for i, n in enumerate(names) if kind[n].is_minion]
    if not minions:
        return max(range(len(names)), key=lambda i: (count[names[i]], -i))
    return max(minions, key=lambda i: (count[names[i]], names[i] == "Tenacious Z",
                                       kind[names[i]].power, -i))


def mall_crawl(g, c, card):
    if not g.refill(c):  # searching an empty deck searches the reshuffled discard pile (§1.9)
        return
    pl = g.players[c]
    names = _names_in_data_order(g, pl.deck)
    name = g.choose(c, "Mall Crawl", names, _crawl_default(g, names, pl.deck))
    pl.discard.extend(_take_copies(g, c, "Mall Crawl:copies", pl.deck, name))
    g.shuffle(pl.deck)  # every search ends with a shuffle [D17]


def mall_crawl_want(g, p, card) -> bool:
    deck = g.players[p].deck
    names = _names_in_data_order(g, deck)
    if not names:
        return False
    name = names[_crawl_default(g, names, deck)]
    return sum(1 for c in deck if c.name == name) >= 2


# ---- 8. Not Enough Bullets -------------------------------------------------------------------
def _bullets(g, p):
    """(names of discard minions in data order, the default index, its copies x power)."""
    pile = [c for c in g.players[p].discard if c.is_minion]
    names = _names_in_data_order(g, pile)
    if not names:
        return names, None, 0
    power = {c.name: c.power for c in pile}
    value = [sum(1 for c in pile if c.name == n) * power[n] for n in names]
    i = max(range(len(names)), key=lambda k: (value[k], -k))
    return names, i, value[i]


def not_enough_bullets(g, c, card):
    names, i, _ = _bullets(g, c)
    if not names:
        return
    name = g.choose(c, "Not Enough Bullets", names, i)
    g.players[c].hand.extend(_take_copies(g, c, "Not Enough Bullets:copies", g.players[c].discard, name))


# ---- 9. Outbreak -----------------------------------------------------------------------------
def outbreak_want(g, p, card) -> bool:
    minions = [c for c in g.players[p].hand if c.is_minion]
    if not minions or (g.free_minion > 0 and len(minions) < 2):
        return False
    for c in minions:
        s = place(g, p, c, [s for s in g.slots if g.minion_allowed(p, c, s)])
        if s is not None and not any(m.controller == p for m in s.minions):
            return True
    return False


# ---- 10. Overrun -----------------------------------------------------------------------------
def overrun_start(g, p, x):
    g.discard_action(x)  # destroyed at the start of your (next) turn


# ---- 12. They're Coming To Get You -----------------------------------------------------------
def ctgy_host(g, c, card, hosts) -> int:
    pl = g.players[c]
    for pile in (pl.discard, pl.hand):
        minions = [x for x in pile if x.is_minion]
        i = _best_card(minions)
        if i is not None:
            legal = [s for s in hosts if g.minion_allowed(c, minions[i], s)]
            if legal:
                return hosts.index(place(g, c, minions[i], legal))
    return _smallest_gap(g, hosts)


def ctgy_moves(g, p):
    """("ctgy", attached, card): once per turn per card, in p's Play Cards phase, with the free
    minion play or a generic M grant (not a specific one)."""
    if not (g.in_play_phase and p == g.current and (g.free_minion > 0 or ("M", None) in g.grants)):
        return []
    out = []
    for a in g.attached_anywhere():
        if a.card.name == "They're Coming To Get You" and a.controller == p \
                and ("ctgy", a.card.uid) not in g.flags:
            out += [("ctgy", a, c) for c in g.players[p].discard
                    if c.is_minion and g.minion_allowed(p, c, a.host)]
    return out


def ctgy_want(g, p, mv) -> bool:
    """A discard minion of higher printed power than every minion in hand: the best one."""
    _, a, card = mv
    allowed = [c.power for c in g.players[p].discard if c.is_minion and g.minion_allowed(p, c, a.host)]
    in_hand = [c.power for c in g.players[p].hand if c.is_minion]
    return bool(allowed) and card.power == max(allowed) and card.power > max(in_hand, default=-1)


# ---- the tables ------------------------------------------------------------------------------
ab.ON_PLAY.update({"Zombie Lord": zombie_lord, "Grave Digger": grave_digger, "Walker": walker})
ab.ACTION.update({
    "Grave Robbing": grave_robbing, "Lend a Hand": lend_a_hand, "Mall Crawl": mall_crawl,
    "Not Enough Bullets": not_enough_bullets,
    "Outbreak": lambda g, c, card: g.grant_minion(c, "M0"),
    "They Keep Coming": lambda g, c, card: g.grant_minion(c, "Mdisc"),
})
ab.HOST.update({"Overrun": lead_host, "They're Coming To Get You": ctgy_host})
ab.WANT.update({
    "Grave Robbing": grave_robbing_want,
    "Lend a Hand": lambda g, p, card: len(g.players[p].discard) > len(g.players[p].deck),
    "Mall Crawl": mall_crawl_want,
    "Not Enough Bullets": lambda g, p, card: _bullets(g, p)[2] >= 4,
    "Outbreak": outbreak_want,
    "Overrun": lambda g, p, card: True,
    "They Keep Coming": lambda g, p, card: any(c.is_minion for c in g.players[p].discard),
    "They're Coming To Get You": lambda g, p, card: True,
    "They're Coming To Get You:use": ctgy_want,
})
ab.TALENT["They're Coming To Get You:moves"] = ctgy_moves
ab.START["Overrun"] = overrun_start
