"""Pirates: every card ability (rules/smash-up-cards.md §5). Buccaneer's move instead of
destruction is in ``Game.destroy`` (§1.6, [D18]).

Choices the spec leaves open, decided here (the kernel mirrors them):
- Option orders: minions in board order, bases in slot order, players by seat; moves are
  (minion, base) pairs, minion first; a "may" / "up to" ends with None.
- Pirate King offers each of your Pirate Kings on another base (board order).
- Broadside: (base where you have a minion, seat) pairs, every seat; default the opponent pair
  destroying most power (ties: the first).
- Cannon and Dinghy choose one target at a time under the same key; a minion is moved at most
  once by one Dinghy or Full Sail.
- Full Sail as an ordinary play (the baseline never makes it): default the move raising V most,
  one at a time, like Dinghy. As a Special, one move at a time: the move into the scoring base
  raising your vp_now there most (ties: the first); else, while you would score 0 there, your
  first minion there out to the base PLACE picks; else stop.
- Sea Dogs names one of the other players' factions (seats in turn order after you, each its two
  factions in draft order, no repeats): every minion of another player is of its owner's factions
  in the core set. Options (faction, source, destination), destination ≠ source. Default: among
  sources where an opponent outranks you, the (faction, source) moving most opponent power to the
  base with the largest gap (ties: lower slot); ties: the first.
- Shanghai's destination: the largest gap among legal bases, ties the lower slot.
"""
from __future__ import annotations

from .. import abilities as ab
from ..baseline import V, gap, hit, outranked, place
from .ninjas import best_move, may_destroy, own_moves, v_if, vp_if


# ---- minions ---------------------------------------------------------------------------------
def king_options(g, q, slot):
    return [m for m in g.minions_of(q) if m.name == "Pirate King" and g.affectable(m, q, False)
            and g.can_move(q, m, slot)]


def king_want(g, q, slot, m):
    old = m.slot
    gain = vp_if(g, q, slot, moves=[(m, slot)]) - g.vp_now(slot)[q]
    loss = g.vp_now(old)[q] - vp_if(g, q, old, moves=[(m, slot)])
    return gain > loss


def cut_lass(g, m):
    p = m.controller
    targets = [x for x in m.slot.minions if g.power(x) <= 2 and g.destroyable(x, p, False)]
    may_destroy(g, p, "Cut Lass", targets, False)


def first_mate(g, q, slot, m):
    dests = [s for s in g.slots if s is not slot and g.can_move(q, m, s)]  # never the replacement
    if not dests:
        return
    dest = g.choose(q, "First Mate", dests + [None], dests.index(place(g, q, m, dests)))
    if dest is not None:
        g.move(m, dest, q)


# ---- actions ---------------------------------------------------------------------------------
def _broadside_options(g, c):
    return [(s, q) for s in g.slots if any(m.controller == c for m in s.minions) for q in range(g.n)]


def _broadside_victims(g, c, s, q):
    return [m for m in s.minions if m.controller == q and g.power(m) <= 2 and g.destroyable(m, c, True)]


def _broadside_default(g, c, options):
    """(index, destroyed power) of the opponent pair destroying most power (ties: the first)."""
    theirs = [(i, sum(g.power(m) for m in _broadside_victims(g, c, s, q)))
              for i, (s, q) in enumerate(options) if q != c]
    return max(theirs, key=lambda t: (t[1], -t[0])) if theirs else (0, 0)


def broadside(g, c, card):
    options = _broadside_options(g, c)
    pick = g.choose(c, "Broadside", options, _broadside_default(g, c, options)[0])
    if pick is not None:
        g.destroy(_broadside_victims(g, c, *pick), c, True)


def _cannon_targets(g, c):
    return [m for m in g.minions() if g.power(m) <= 2 and g.destroyable(m, c, True)]


def cannon(g, c, card):
    targets, chosen = _cannon_targets(g, c), []
    for _ in range(2):  # up to two, chosen first, destroyed together (§1.6)
        i = hit(g, c, targets)
        m = g.choose(c, "Cannon", targets + [None], len(targets) if i is None else i)
        if m is None:
            break
        chosen.append(m)
        targets = [x for x in targets if x is not m]
    g.destroy(chosen, c, True)


def _move_some(g, c, key, limit, default):
    """Up to ``limit`` moves of ``c``'s minions, one at a time, each minion at most once;
    ``default(moves)`` is the baseline's index or None (stop)."""
    moved = []
    for _ in range(limit):
        moves = own_moves(g, c, exclude=moved)
        if not moves:
            return
        i = default(moves)
        mv = g.choose(c, key, moves + [None], len(moves) if i is None else i)
        if mv is None:
            return
        moved.append(mv[0])
        g.move(mv[0], mv[1], c)


def dinghy(g, c, card):
    _move_some(g, c, "Dinghy", 2, lambda moves: best_move(g, c, moves))


def _sail_default(g, c, slot, moves):
    """The Special's baseline: in to raise your vp_now at ``slot``, or out while it is 0."""
    now = g.vp_now(slot)[c]
    gains = [vp_if(g, c, slot, moves=[mv]) - now if mv[1] is slot else 0 for mv in moves]
    if gains and max(gains) > 0:
        return gains.index(max(gains))
    if now == 0:
        out = [mv for mv in moves if mv[0].slot is slot]
        if out:
            m = out[0][0]
            dest = place(g, c, m, [s for mm, s in out if mm is m])
            return moves.index((m, dest))
    return None


def full_sail(g, c, card):
    if g.window is not None:
        slot = g.window["slot"]
        _move_some(g, c, "Full Sail", 10**6, lambda moves: _sail_default(g, c, slot, moves))
    else:
        _move_some(g, c, "Full Sail", 10**6, lambda moves: best_move(g, c, moves))


def sail_options(g, q, slot):
    if not g.can_play_actions(q):  # Mark of Sleep covers Specials [D36]
        return []
    card = next((c for c in g.players[q].hand if c.name == "Full Sail"), None)
    return [card] if card is not None else []


def sail_want(g, q, slot, card):
    moves = own_moves(g, q)
    return bool(moves) and _sail_default(g, q, slot, moves) is not None


def _keg_victims(g, c, m):
    power = g.power(m)
    keep = [m] if g.destroyable(m, c, True) else []  # a Warbot m survives, the others still die
    return keep + [x for x in m.slot.minions
                   if x is not m and g.power(x) <= power and g.destroyable(x, c, True)]


def _keg_default(g, c, options):
    """(index, other players' destroyed power - yours) of the best m."""
    scores = [sum(g.power(x) * (1 if x.controller != c else -1) for x in _keg_victims(g, c, m))
              for m in options]
    i = scores.index(max(scores)) if scores else 0
    return i, (scores[i] if scores else 0)


def _keg_options(g, c):
    return [m for m in g.minions_of(c) if g.affectable(m, c, True)]  # a Warbot too [D8]


def powderkeg(g, c, card):
    options = _keg_options(g, c)
    m = g.choose(c, "Powderkeg", options, _keg_default(g, c, options)[0])
    if m is not None:
        g.destroy(_keg_victims(g, c, m), c, True)


def _sea_factions(g, c):
    out = []
    for q in g.others(c):
        out += [f for f in g.players[q].factions if f not in out]
    return out


def _sea_options(g, c):
    return [(f, src, dst) for f in _sea_factions(g, c)
            for src in g.slots for dst in g.slots if dst is not src]


def _sea_movers(g, c, f, src, dst):
    return [m for m in src.minions if m.controller != c and m.card.faction == f
            and g.affectable(m, c, True) and g.can_move(c, m, dst)]


def _sea_default(g, c, options):
    """Index of the baseline's (faction, source, destination), or None (hold)."""
    best, most = None, 0
    for i, (f, src, dst) in enumerate(options):
        others = [s for s in g.slots if s is not src]
        if not outranked(g, c, src) or dst is not max(others, key=lambda s: (gap(g, s), -s.index)):
            continue
        power = sum(g.power(m) for m in _sea_movers(g, c, f, src, dst))
        if power > most:
            best, most = i, power
    return best


def sea_dogs(g, c, card):
    options = _sea_options(g, c)
    i = _sea_default(g, c, options)
    pick = g.choose(c, "Sea Dogs", options, 0 if i is None else i)
    if pick is not None:
        f, src, dst = pick
        for m in _sea_movers(g, c, f, src, dst):
            g.move(m, dst, c)


def sea_dogs_want(g, p, card):
    options = _sea_options(g, p)
    i = _sea_default(g, p, options)
    if i is None:
        return False
    f, src, dst = options[i]
    return v_if(g, p, moves=[(m, dst) for m in _sea_movers(g, p, f, src, dst)]) > V(g, p)


def _shanghai_moves(g, c):
    return [(m, s) for m in g.minions() if m.controller != c and g.affectable(m, c, True)
            for s in g.slots if g.can_move(c, m, s)]


def shanghai(g, c, card):
    moves = _shanghai_moves(g, c)
    default = 0
    if moves:
        movable = list(dict.fromkeys(m for m, _ in moves))
        m = movable[hit(g, c, movable)]
        dest = max((s for mm, s in moves if mm is m), key=lambda s: (gap(g, s), -s.index))
        default = moves.index((m, dest))
    mv = g.choose(c, "Shanghai", moves, default)
    if mv is not None:
        g.move(mv[0], mv[1], c)


def _swash_minions(g, c):
    return [m for m in g.minions_of(c) if g.affectable(m, c, True)]


def swashbuckling(g, c, card):
    for m in _swash_minions(g, c):  # only minions in play now (§1.4)
        g.boost(m, c, temp=1)


def swashbuckling_want(g, p, card):
    mine = _swash_minions(g, p)
    before = V(g, p)
    for m in mine:
        m.temp += 1
    after = V(g, p)
    for m in mine:
        m.temp -= 1
    return after > before


ab.ON_PLAY.update({"Cut Lass": cut_lass})
ab.AFTER.update({"First Mate": first_mate})
ab.BEFORE.update({
    "Pirate King": (king_options, lambda g, q, slot, m: g.move(m, slot, q), king_want),
    "Full Sail": (sail_options, lambda g, q, slot, card: g.play_action(q, card), sail_want),
})
ab.ACTION.update({"Broadside": broadside, "Cannon": cannon, "Dinghy": dinghy, "Full Sail": full_sail,
                  "Powderkeg": powderkeg, "Sea Dogs": sea_dogs, "Shanghai": shanghai,
                  "Swashbuckling": swashbuckling})
ab.WANT.update({
    "Broadside": lambda g, p, card: _broadside_default(g, p, _broadside_options(g, p))[1] > 0,
    "Cannon": lambda g, p, card: hit(g, p, _cannon_targets(g, p)) is not None,
    "Dinghy": lambda g, p, card: best_move(g, p, own_moves(g, p)) is not None,
    "Full Sail": lambda g, p, card: False,  # the baseline keeps it for the Special
    "Powderkeg": lambda g, p, card: _keg_default(g, p, _keg_options(g, p))[1] > 0,
    "Sea Dogs": sea_dogs_want,
    "Shanghai": lambda g, p, card: bool(_shanghai_moves(g, p)),
    "Swashbuckling": swashbuckling_want,
})
