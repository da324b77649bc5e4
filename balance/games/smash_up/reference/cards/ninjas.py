"""Ninjas: every card ability (rules/smash-up-cards.md §4).

Choices the spec leaves open, decided here (the kernel mirrors them):
- Option orders: minions in board order (slot, then arrival on the base), cards in hand order,
  bases in slot order; a "may" ends with None.
- A hand card's "best" minion is the highest printed power, ties the first in hand order.
- Shinobi and Hidden Ninja offer one option each (the first copy in hand: the copies are alike);
  BEFORE entries are registered Shinobi, Hidden Ninja (then pirates.py: Pirate King, Full Sail),
  the order the before-scoring window lists them in.
- Ninja Acolyte's default PLACE adds the minion without taking the Acolyte away (as PLACE does
  for an ordinary play, baseline.py).
- Disguise: options are (base, chosen minions), per base its singles in arrival order, then its
  pairs; the default is the option with the highest V after the swap (ties: the lower total
  power chosen, then the first), the new minions the best hand minions.
- Infiltrate's default host is the first base (slot order) carrying another player's action;
  its default destroys the first such action there (arrival order).

The helpers above the cards (``hypothetically``, ``v_if``, ``vp_if``, ``best_card``,
``best_move``, ``own_moves`` ...) are shared with pirates.py.
"""
from __future__ import annotations

from contextlib import contextmanager

from .. import abilities as ab
from ..baseline import V, gap, help_, hit, place
from ..state import Minion


# ---- the board "as if" (restored exactly: arrival orders matter to the kernel) ----------------
@contextmanager
def hypothetically(g, p=None, moves=(), remove=(), add=()):
    """Minions moved (``(m, dest)``) or removed, hand cards added as ``p``'s minions
    (``(card, slot)``); everything is put back as it was afterwards."""
    lists = [list(s.minions) for s in g.slots]
    homes = [(m, m.slot) for m, _ in moves]
    for m in remove:
        m.slot.minions.remove(m)
    for m, dest in moves:
        m.slot.minions.remove(m)
        dest.minions.append(m)
        m.slot = dest
    for card, slot in add:
        slot.minions.append(Minion(card, p, slot, 10**9))
    try:
        yield
    finally:
        for s, ms in zip(g.slots, lists):
            s.minions[:] = ms
        for m, home in homes:
            m.slot = home


def v_if(g, p, **change) -> int:
    with hypothetically(g, p, **change):
        return V(g, p)


def vp_if(g, p, slot, **change) -> int:
    with hypothetically(g, p, **change):
        return g.vp_now(slot)[p]


def best_card(cards) -> int:
    """Index of the highest printed power (ties: the first); 0 for no card."""
    return max(range(len(cards)), key=lambda i: (cards[i].power, -i)) if cards else 0


def hand_minions(g, p, slot):
    """Minion cards in ``p``'s hand that may be played on ``slot``, hand order."""
    return [c for c in g.players[p].hand if c.is_minion and g.minion_allowed(p, c, slot)]


def best_move(g, p, moves):
    """Index of the move raising V most (ties: the first), or None if none raises V."""
    if not moves:
        return None
    before = V(g, p)
    gains = [v_if(g, p, moves=[mv]) - before for mv in moves]
    i = gains.index(max(gains))
    return i if gains[i] > 0 else None


def own_moves(g, p, exclude=()):
    """(minion, base) for each of ``p``'s minions that ``p``'s card may move, each legal base."""
    return [(m, s) for m in g.minions_of(p) if m not in exclude and g.affectable(m, p, True)
            for s in g.slots if g.can_move(p, m, s)]


def may_destroy(g, p, key, targets, action):
    """A "may destroy": default HIT, else decline."""
    i = hit(g, p, targets)
    x = g.choose(p, key, targets + [None], len(targets) if i is None else i)
    if x is not None:
        g.destroy([x], p, action)


def hosts_for(g, p):
    """The hosts a play-on-minion action of ``p`` may take (as Game.play_action lists them)."""
    return [m for m in g.minions() if g.affectable(m, p, True)]


# ---- minions ---------------------------------------------------------------------------------
def ninja_master(g, m):
    p = m.controller
    may_destroy(g, p, "Ninja Master", [x for x in m.slot.minions if g.destroyable(x, p, False)], False)


def tiger_assassin(g, m):
    p = m.controller
    pool = g.minions() if g.rules.tiger_assassin_any_base else list(m.slot.minions)  # [D3]
    may_destroy(g, p, "Tiger Assassin",
                [x for x in pool if g.power(x) <= 3 and g.destroyable(x, p, False)], False)


def shinobi_options(g, q, slot):
    if ("shinobi", q) in g.window["used"]:  # one Shinobi per player per scoring [D26]
        return []
    card = next((c for c in g.players[q].hand if c.name == "Shinobi"), None)
    return [card] if card is not None and g.minion_allowed(q, card, slot) else []


def shinobi_do(g, q, slot, card):
    g.window["used"].add(("shinobi", q))
    g.play_minion(q, card, slot)


def shinobi_want(g, q, slot, card):
    return vp_if(g, q, slot, add=[(card, slot)]) > g.vp_now(slot)[q]


def acolyte_usable(g, p, x):
    # no minion yet in this Play Cards phase (published clarification), and something,
    # the Acolyte included, could be played here afterwards [D37]
    return g.phase_minions == 0 and (g.minion_allowed(p, x.card, x.slot) or bool(hand_minions(g, p, x.slot)))


def acolyte_use(g, p, x):
    slot = x.slot
    g.return_to_hand(x, p)
    cards = hand_minions(g, p, slot)
    card = g.choose(p, "Ninja Acolyte", cards, best_card(cards))
    if card is not None:
        g.play_minion(p, card, slot)  # not a grant: the free minion play stays open


def acolyte_want(g, p, x):
    big = [c for c in g.players[p].hand if c.is_minion and c.power >= 3]
    if not big:
        return False
    card = big[best_card(big)]
    slots = []
    for a in g.minions_of(p):
        if (a.name == "Ninja Acolyte" and not a.talent_used and acolyte_usable(g, p, a)
                and g.minion_allowed(p, card, a.slot) and a.slot not in slots):
            slots.append(a.slot)
    return bool(slots) and place(g, p, card, slots) is x.slot


# ---- actions ---------------------------------------------------------------------------------
def _assassin_pick(g, c, hosts):
    """HIT among destroyable hosts on bases with gap > 0, as an index into ``hosts`` (or None)."""
    idx = [i for i, m in enumerate(hosts) if gap(g, m.slot) > 0 and g.destroyable(m, c, True)]
    i = hit(g, c, [hosts[j] for j in idx])
    return None if i is None else idx[i]


def assassin_host(g, c, card, hosts):
    i = _assassin_pick(g, c, hosts)
    return i if i is not None else hit(g, c, hosts, mandatory=True)


def assassin_end(g, p, a):
    # "at the end of this turn" only: a Buccaneer that escaped keeps it attached, inert
    if a.turn == g.turns:
        g.destroy([a.host], a.controller, True)


def disguise_options(g, c):
    out = []
    for s in g.slots:
        k = min(2, len(hand_minions(g, c, s)))  # only as many as it can replace [D24]
        mine = [m for m in s.minions if m.controller == c and g.affectable(m, c, True)]
        out += [(s, (m,)) for m in mine] if k >= 1 else []
        out += [(s, (a, b)) for i, a in enumerate(mine) for b in mine[i + 1:]] if k >= 2 else []
    return out


def _disguise_value(g, c, opt):
    slot, chosen = opt
    cards = sorted(hand_minions(g, c, slot), key=lambda x: -x.power)[:len(chosen)]  # stable: hand order
    return v_if(g, c, remove=chosen, add=[(x, slot) for x in cards])


def _disguise_default(g, c, options):
    keys = [(_disguise_value(g, c, o), -sum(g.power(m) for m in o[1]), -i) for i, o in enumerate(options)]
    return keys.index(max(keys))


def disguise(g, c, card):
    options = disguise_options(g, c)
    opt = g.choose(c, "Disguise", options, _disguise_default(g, c, options) if options else 0)
    if opt is None:
        return
    slot, chosen = opt
    for _ in chosen:  # the new minions first, then the return [D24]
        cards = hand_minions(g, c, slot)
        pick = g.choose(c, "Disguise:play", cards, best_card(cards))
        if pick is None:
            break
        g.play_minion(c, pick, slot)
    for m in chosen:
        if m in m.slot.minions:
            g.return_to_hand(m, c)


def disguise_want(g, p, card):
    options = disguise_options(g, p)
    return bool(options) and _disguise_value(g, p, options[_disguise_default(g, p, options)]) > V(g, p)


def hidden_options(g, q, slot):
    if not g.can_play_actions(q):  # Mark of Sleep covers Specials [D36]
        return []
    card = next((c for c in g.players[q].hand if c.name == "Hidden Ninja"), None)
    return [card] if card is not None else []


def hidden_do(g, q, slot, card):
    g.play_action(q, card)  # a Special: no action play spent


def hidden_want(g, q, slot, card):
    cards = hand_minions(g, q, slot)
    return bool(cards) and vp_if(g, q, slot, add=[(cards[best_card(cards)], slot)]) > g.vp_now(slot)[q]


def hidden_ninja(g, c, card):
    if g.window is None:  # only its Special does something [D25]
        return
    slot = g.window["slot"]
    cards = hand_minions(g, c, slot)
    pick = g.choose(c, "Hidden Ninja", cards, best_card(cards))
    if pick is not None:
        g.play_minion(c, pick, slot)


def _infiltrate_bases(g, c):
    return [i for i, s in enumerate(g.slots) if any(a.controller != c for a in s.actions)]


def infiltrate_attach(g, a):
    c = a.controller
    others = [b for b in a.host.actions if b is not a]  # not actions on minions there [D22]
    theirs = [i for i, b in enumerate(others) if b.controller != c]
    b = g.choose(c, "Infiltrate:destroy", others + [None], theirs[0] if theirs else len(others))
    if b is not None:
        g.discard_action(b)


def infiltrate_talent(g, p, x):
    slot = x.host
    g.discard_action(x)
    slot.cancelled_until.add(p)  # for everyone, until the start of p's next turn


def poison_host(g, c, card, hosts):
    i = hit(g, c, hosts)
    return i if i is not None else hit(g, c, hosts, mandatory=True)


def poison_attach(g, a):
    c = a.controller
    while True:  # any number, one at a time; default: every other player's action
        others = [b for b in a.host.attached if b is not a]
        default = next((i for i, b in enumerate(others) if b.controller != c), len(others))
        b = g.choose(c, "Poison:destroy", others + [None], default)
        if b is None:
            return
        g.discard_action(b)


def _stars_targets(g, c):
    return [m for m in g.minions() if g.power(m) <= 3 and g.destroyable(m, c, True)]


def seeing_stars(g, c, card):
    targets = _stars_targets(g, c)
    m = g.choose(c, "Seeing Stars", targets, hit(g, c, targets, mandatory=True))
    if m is not None:
        g.destroy([m], c, True)


def smoke_bomb_host(g, c, card, hosts):
    i = help_(g, c, hosts)
    return 0 if i is None else i


def way_of_deception(g, c, card):
    moves = own_moves(g, c)
    i = best_move(g, c, moves)
    mv = g.choose(c, "Way of Deception", moves, 0 if i is None else i)
    if mv is not None:
        g.move(mv[0], mv[1], c)


ab.ON_PLAY.update({"Ninja Master": ninja_master, "Tiger Assassin": tiger_assassin})
ab.TALENT.update({
    "Ninja Acolyte": (acolyte_usable, acolyte_use, acolyte_want),
    "Infiltrate": (lambda g, p, x: True, infiltrate_talent, lambda g, p, x: False),
})
ab.BEFORE.update({
    "Shinobi": (shinobi_options, shinobi_do, shinobi_want),
    "Hidden Ninja": (hidden_options, hidden_do, hidden_want),
})
ab.ACTION.update({"Disguise": disguise, "Hidden Ninja": hidden_ninja, "Seeing Stars": seeing_stars,
                  "Way of Deception": way_of_deception})
ab.ATTACH.update({"Infiltrate": infiltrate_attach, "Poison": poison_attach,
                  "Smoke Bomb": lambda g, a: g.protect(a.host)})  # theirs already on it go [D7]
ab.END.update({"Assassin": assassin_end})
ab.HOST.update({
    "Assassin": assassin_host,
    "Infiltrate": lambda g, c, card, hosts: (_infiltrate_bases(g, c) or [0])[0],
    "Poison": poison_host,
    "Smoke Bomb": smoke_bomb_host,
})
ab.WANT.update({
    "Assassin": lambda g, p, card: _assassin_pick(g, p, hosts_for(g, p)) is not None,
    "Disguise": disguise_want,
    "Hidden Ninja": lambda g, p, card: False,  # [D25]: never an ordinary play
    "Infiltrate": lambda g, p, card: bool(_infiltrate_bases(g, p)),
    "Poison": lambda g, p, card: hit(g, p, hosts_for(g, p)) is not None,
    "Seeing Stars": lambda g, p, card: hit(g, p, _stars_targets(g, p)) is not None,
    "Smoke Bomb": lambda g, p, card: any(m.controller == p for m in hosts_for(g, p)),
    "Way of Deception": lambda g, p, card: best_move(g, p, own_moves(g, p)) is not None,
})
