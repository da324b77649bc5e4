"""The baseline's vocabulary (rules/smash-up-cards.md §1.11) and its play-phase policy.

``gap``, ``vp_now``, ``V``, HIT, HELP and PLACE as the spec defines them; every card's "Default"
line is written with these. Where the spec leaves the baseline open we decide, and say so here:

- PLACE scores a base by V with the minion added at its current power (continuous effects
  included); it does not look ahead at the minion's on-play ability.
- A mandatory step whose only legal targets are your own minions takes your lowest-power one
  (ties: lower slot, earlier arrival) [D9].
- Play Cards phase (``greedy_play``): first every talent whose default says use; then a minion
  whenever a minion play is open — Microbot Fixer or Reclaimer if it would be your first minion
  this turn, otherwise the highest printed power (ties: hand before discard pile, then hand
  order) — on the base PLACE picks (a Pixie whose default is its action mode is left for the
  action step); then the first action in hand whose default says play; then end the phase.
"""
from __future__ import annotations

from .players import Greedy
from .state import Minion


def gap(g, slot) -> int:
    return g.breakpoint(slot) - g.total_power(slot)


def V(g, p) -> int:
    """§1.11's V in the seat's weights, percent (``players.Greedy.weights``): each base counts
    ready% when ready to score (else 100%) of 100 x p's VP there minus deny% x the best rival's.
    The baseline's (200, 100) is 10,000 x the spec's V: the same comparisons."""
    ready, deny = getattr(g.strategies[p], "weights", Greedy.weights)
    total = 0
    for s in g.slots:
        now = g.vp_now(s)
        best_other = max(now[q] for q in range(g.n) if q != p)
        total += (ready if g.ready(s) else 100) * (100 * now[p] - deny * best_other)
    return total


def outranked(g, p, slot) -> bool:
    """Some opponent would take more VP than ``p`` from the base now."""
    now = g.vp_now(slot)
    return max(now[q] for q in range(g.n) if q != p) > now[p]


def hit(g, p, candidates, mandatory=False):
    """HIT: the index of another player's minion to remove or weaken; for a mandatory step
    with only your own minions, your lowest-power one [D9]; otherwise None."""
    theirs = [i for i, m in enumerate(candidates) if m.controller != p]
    if theirs:
        hot = [i for i in theirs if outranked(g, p, candidates[i].slot)]

        def key(i):
            m = candidates[i]
            return (gap(g, m.slot), -g.power(m), m.slot.index, m.entered)
        if hot:
            return min(hot, key=key)
        return min(theirs, key=lambda i: (-g.power(candidates[i]),) + key(i))
    if mandatory and candidates:
        return min(range(len(candidates)),
                   key=lambda i: (g.power(candidates[i]), candidates[i].slot.index, candidates[i].entered))
    return None


def help_(g, p, candidates):
    """HELP: the index of your minion to strengthen or protect (None if you have none)."""
    mine = [i for i, m in enumerate(candidates) if m.controller == p]
    if not mine:
        return None
    return min(mine, key=lambda i: (gap(g, candidates[i].slot), -g.power(candidates[i]),
                                    candidates[i].slot.index, candidates[i].entered))


def _v_with(g, p, card_or_minion, slot) -> int:
    """V for ``p`` with a minion card played (or a minion moved) onto ``slot``."""
    if isinstance(card_or_minion, Minion):
        m = card_or_minion
        old = m.slot
        i = old.minions.index(m)
        old.minions.pop(i)
        slot.minions.append(m)
        m.slot = slot
        v = V(g, p)
        slot.minions.remove(m)
        old.minions.insert(i, m)  # back where it was
        m.slot = old
        return v
    m = Minion(card_or_minion, p, slot, 10**9)
    slot.minions.append(m)
    v = V(g, p)
    slot.minions.remove(m)
    return v


def place(g, p, card_or_minion, slots):
    """PLACE: the slot maximizing V after the minion arrives; ties: (a War Raptor: more of your
    War Raptors there,) smaller gap, lower slot."""
    if not slots:
        return None
    raptor = card_or_minion.name == "War Raptor"  # §3.4 Default: ties -> more of your War Raptors

    def raptors(s):
        return sum(1 for m in s.minions if raptor and m.name == "War Raptor" and m.controller == p)
    return max(slots, key=lambda s: (_v_with(g, p, card_or_minion, s), raptors(s), -gap(g, s), -s.index))


def greedy_minion(g, p, moves):
    """Index of the baseline's minion play among (source, card, slot) moves."""
    first = g.minions_played[p] == 0
    rank = {"hand": 0, "discard": 1, "tenacious": 2, "ctgy": 3}

    def card_key(i):
        src, card, _ = moves[i][:3]
        bonus = first and card.name in ("Microbot Fixer", "Microbot Reclaimer")
        return (not bonus, -card.power, rank[src], i)
    best = min(range(len(moves)), key=card_key)
    src, card = moves[best][0], moves[best][1]
    same = [i for i, mv in enumerate(moves) if mv is not None and mv[0] == src and mv[1] is card]
    target = place(g, p, card, [moves[i][2] for i in same])
    return next(i for i in same if moves[i][2] is target)


def greedy_play(g, p, moves) -> int:
    """Index of the baseline's move among the Play Cards phase's ``moves`` (last: None)."""
    from . import abilities as ab  # noqa: PLC0415
    for i, mv in enumerate(moves):
        if mv is not None and mv[0] == "talent" and ab.talent_wanted(g, p, mv[1]):
            return i
    # a Pixie whose own default is its action mode is not played as a minion (§7.5 Default),
    # unless it cannot be played as an action now (no action play open, or Mark of Sleep)
    as_action = {id(mv[1]) for mv in moves if mv is not None and mv[0] == "action"}
    minion = [i for i, mv in enumerate(moves) if mv is not None and mv[0] in ("hand", "discard", "tenacious")
              and not (mv[1].kind == "dual" and id(mv[1]) in as_action and ab.want(g, p, mv[1]))]
    ctgy = ab.WANT.get("They're Coming To Get You:use")
    for i, mv in enumerate(moves):
        if mv is not None and mv[0] == "ctgy" and ctgy is not None and ctgy(g, p, mv):
            return i
    if minion:
        sub = [moves[i] for i in minion]
        return minion[greedy_minion(g, p, sub)]
    for i, mv in enumerate(moves):
        if mv is not None and mv[0] == "action" and ab.want(g, p, mv[1]):
            return i
    return len(moves) - 1


def score_order(g, ready) -> int:
    """Ready bases: the current player's VP from them, highest first; ties: lower slot."""
    p = g.current
    return max(range(len(ready)), key=lambda i: (g.vp_now(ready[i])[p], -ready[i].index))


def keep_value(card) -> int:
    """Baseline discard order: the lowest value goes first (minions by printed power, actions 3)."""
    return card.power if card.kind == "minion" else 3
