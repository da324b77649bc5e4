"""Aliens: every card ability (rules/smash-up-cards.md §2).

Already in the core (``game.py``), not here: Jammed Signal's cancellation (``Game.active``, read
by every base hook, ``power`` and ``score_base``).

Where the spec leaves the option lists or the baseline open we decide (the kernel mirrors these):
- Supreme Overlord, Collector, Abduction, Beam Up, Disintegrator: options are the legal minions in
  board order (slot, then arrival), then None where the step is a "may".
- Crop Circles: options are the bases in slot order; the default base is the one maximizing
  opponents' returned power - yours (ties: lower slot), and the baseline plays the card only when
  that very base scores > 0 and an opponent outranks you there.
- Invasion: options are (minion, base) pairs, minions in board order then bases in slot order.
  The baseline compares two moves by V after the move: the HIT target (among minions that can
  move somewhere) to its legal base with the largest gap (ties: lower slot), and the own move
  with the highest V among each of your movable minions to its PLACE base (ties: board order);
  ties between the two go to the HIT move. It plays only if that V beats V now.
- Jammed Signal: bases already cancelled are not candidates; when played with no candidate the
  default host is the base with the smallest gap (ties: lower slot).
- Probe: options are the other players in turn order after you; the baseline always plays it
  (its Default names no hold condition). Minions in hand are offered in hand order; ties of
  printed power go to the first.
- Terraforming: the base in play is chosen first (key "Terraforming"), then the deck base
  ("Terraforming:base", offered in base-deck list order, bottom first). "Lead" = your power there
  minus the highest other player's power, > 0. With an empty base deck nothing happens, not even
  the grant (there is no new base). The swapped-in base card starts fresh: no breakpoint
  reduction [D23], an unused Tar Pits replacement [D16] and no Infiltrate cancellation (both
  belong to the base card, like the reduction).
"""
from __future__ import annotations

from .. import abilities as ab
from ..baseline import V, _v_with, gap, hit, outranked, place


def _pick_or_decline(g, p, key, options, i):
    """A "may" over ``options``: the baseline takes index ``i`` (None: decline)."""
    return g.choose(p, key, options + [None], len(options) if i is None else i)


# ---- Supreme Overlord, Invader, Scout, Collector -----------------------------------------
def supreme_overlord(g, m):
    p = m.controller
    options = [x for x in g.minions() if g.affectable(x, p, False)]  # itself allowed
    x = _pick_or_decline(g, p, "Supreme Overlord", options, hit(g, p, options))
    if x is not None:
        g.return_to_hand(x, p)


def invader(g, m):
    g.players[m.controller].vp += 1  # kept even if the Invader later leaves play
    g.log.append(("vp", m.controller, 1, "Invader"))


def scout(g, q, slot, m):
    if g.may(q, "Scout", m, True) is not None:
        g.return_to_hand(m, q)


def collector(g, m):
    p = m.controller
    no_collectors = g.rules.collector_excludes_collectors  # [D4]
    options = [x for x in m.slot.minions if g.power(x) <= 3 and g.affectable(x, p, False)
               and not (no_collectors and x.name == "Collector")]
    x = _pick_or_decline(g, p, "Collector", options, hit(g, p, options))
    if x is not None:
        g.return_to_hand(x, p)


# ---- Abduction, Beam Up, Disintegrator -------------------------------------------------
def _action_targets(g, c, most=None):
    return [m for m in g.minions() if g.affectable(m, c, True) and (most is None or g.power(m) <= most)]


def _take(g, c, key, options):
    """A mandatory pick (your own lowest-power minion when only yours are legal [D9])."""
    if options:
        return g.choose(c, key, options, hit(g, c, options, mandatory=True))
    return None


def abduction(g, c, card):
    m = _take(g, c, "Abduction", _action_targets(g, c))
    if m is not None:
        g.return_to_hand(m, c)
    g.grant_minion(c, "M")


def abduction_want(g, p, card) -> bool:
    return hit(g, p, _action_targets(g, p)) is not None and any(x.is_minion for x in g.players[p].hand)


def beam_up(g, c, card):
    m = _take(g, c, "Beam Up", _action_targets(g, c))
    if m is not None:
        g.return_to_hand(m, c)


def beam_up_want(g, p, card) -> bool:
    return hit(g, p, _action_targets(g, p)) is not None


def disintegrator(g, c, card):
    m = _take(g, c, "Disintegrator", _action_targets(g, c, most=3))
    if m is not None:
        g.to_deck_bottom(m, c)  # not destroyed: no trigger, no Tar Pits


def disintegrator_want(g, p, card) -> bool:
    return hit(g, p, _action_targets(g, p, most=3)) is not None


# ---- Crop Circles ------------------------------------------------------------------------
def _crop_score(g, p, slot) -> int:
    """Opponents' returned power minus yours (protected minions stay)."""
    return sum(g.power(m) * (1 if m.controller != p else -1)
               for m in slot.minions if g.affectable(m, p, True))


def _crop_default(g, p) -> int:
    return max(range(len(g.slots)), key=lambda i: (_crop_score(g, p, g.slots[i]), -i))


def crop_circles(g, c, card):
    if not g.slots:
        return
    slot = g.choose(c, "Crop Circles", list(g.slots), _crop_default(g, c))
    for m in [m for m in slot.minions if g.affectable(m, c, True)]:
        g.return_to_hand(m, c)


def crop_circles_want(g, p, card) -> bool:
    if not g.slots:
        return False
    slot = g.slots[_crop_default(g, p)]
    return _crop_score(g, p, slot) > 0 and outranked(g, p, slot)


# ---- Invasion ----------------------------------------------------------------------------
def _invasion_options(g, c):
    return [(m, s) for m in g.minions() if g.affectable(m, c, True)
            for s in g.slots if g.can_move(c, m, s)]


def _invasion_default(g, p, options):
    """(index of the baseline's move, V after it); (None, None) without options."""
    movers = list(dict.fromkeys(m for m, _ in options))
    moves = []
    theirs = [m for m in movers if m.controller != p]
    i = hit(g, p, theirs)
    if i is not None:
        dests = [s for m, s in options if m is theirs[i]]
        moves.append((theirs[i], max(dests, key=lambda s: (gap(g, s), -s.index))))
    own = []
    for m in movers:
        if m.controller == p:
            dest = place(g, p, m, [s for x, s in options if x is m])
            own.append((_v_with(g, p, m, dest), -len(own), (m, dest)))
    if own:
        moves.append(max(own)[2])
    if not moves:
        return None, None
    scored = [(_v_with(g, p, m, s), -k, (m, s)) for k, (m, s) in enumerate(moves)]
    v, _, move = max(scored)
    return options.index(move), v


def invasion(g, c, card):
    options = _invasion_options(g, c)
    if options:
        default, _ = _invasion_default(g, c, options)
        m, dest = g.choose(c, "Invasion", options, default)
        g.move(m, dest, c)


def invasion_want(g, p, card) -> bool:
    _, v = _invasion_default(g, p, _invasion_options(g, p))
    return v is not None and v > V(g, p)


# ---- Jammed Signal -----------------------------------------------------------------------
def _favours_opponent(g, p, slot) -> bool:
    """Would this base's ability help some opponent more than you (§2.10 Default)?"""
    others = [q for q in range(g.n) if q != p]
    if slot.name in ("The Central Brain", "Rhodes Plaza Mall"):  # +1 power / 1 VP per minion
        count = [sum(1 for m in slot.minions if m.controller == q) for q in range(g.n)]
        return any(count[q] > count[p] for q in others)
    if slot.name == "Factory 436-1337":
        places = g.places(slot)
        bonus = [g.player_power(q, slot) // 5 if places.get(q) == 0 else 0 for q in range(g.n)]
        return any(bonus[q] > bonus[p] for q in others)
    return False


def _jam_candidates(g, p):
    return [i for i, s in enumerate(g.slots) if g.active(s) and _favours_opponent(g, p, s)]


def jammed_signal_host(g, c, card, hosts) -> int:
    nearest = _jam_candidates(g, c) or list(range(len(hosts)))
    return min(nearest, key=lambda i: (gap(g, hosts[i]), i))


def jammed_signal_want(g, p, card) -> bool:
    return bool(_jam_candidates(g, p))


# ---- Probe -------------------------------------------------------------------------------
def _opponent_pick(g, p, others) -> int:
    """Most VP; ties: the next in turn order after you (§1.11)."""
    return max(range(len(others)), key=lambda i: (g.players[others[i]].vp, -i))


def probe(g, c, card):
    others = g.others(c)
    q = g.choose(c, "Probe", others, _opponent_pick(g, c, others))
    minions = [x for x in g.players[q].hand if x.is_minion]  # Pixie counts [D20]
    if minions:
        best = max(range(len(minions)), key=lambda i: (minions[i].power, -i))
        g.discard_from_hand(q, g.choose(c, "Probe:minion", minions, best))


def probe_want(g, p, card) -> bool:
    return True


# ---- Terraforming ------------------------------------------------------------------------
def _lead(g, p, slot) -> int:
    return g.player_power(p, slot) - max(g.player_power(q, slot) for q in range(g.n) if q != p)


def _terraform_default(g, p) -> int:
    return max(range(len(g.slots)), key=lambda i: (_lead(g, p, g.slots[i]), -i))


def terraforming(g, c, card):
    if not g.base_deck or not g.slots:
        return
    slot = g.choose(c, "Terraforming", list(g.slots), _terraform_default(g, c))
    deck = list(g.base_deck)
    best = max(range(len(deck)), key=lambda i: (deck[i].vp[0], -deck[i].breakpoint, -i))
    new = g.choose(c, "Terraforming:base", deck, best)
    g.base_deck.pop(next(i for i, b in enumerate(g.base_deck) if b is new))
    g.base_deck.append(slot.base)
    g.log.append(("swap", slot.name, new.name))
    slot.base = new  # the cards on it stay (published clarification)
    slot.reduction = 0  # [D23]: reductions stay with the old card
    slot.tar_pits_used = False
    slot.cancelled_until = set()
    g.shuffle(g.base_deck)  # [D17]
    g.grant_minion(c, "M@", slot)


def terraforming_want(g, p, card) -> bool:
    return bool(g.base_deck) and bool(g.slots) and _lead(g, p, g.slots[_terraform_default(g, p)]) > 0


ab.ON_PLAY.update({"Supreme Overlord": supreme_overlord, "Invader": invader, "Collector": collector})
ab.AFTER["Scout"] = scout
ab.ACTION.update({"Abduction": abduction, "Beam Up": beam_up, "Crop Circles": crop_circles,
                  "Disintegrator": disintegrator, "Invasion": invasion, "Probe": probe,
                  "Terraforming": terraforming})
ab.HOST["Jammed Signal"] = jammed_signal_host
ab.WANT.update({"Abduction": abduction_want, "Beam Up": beam_up_want, "Crop Circles": crop_circles_want,
                "Disintegrator": disintegrator_want, "Invasion": invasion_want,
                "Jammed Signal": jammed_signal_want, "Probe": probe_want,
                "Terraforming": terraforming_want})
