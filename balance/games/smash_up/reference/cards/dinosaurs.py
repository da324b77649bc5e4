"""Dinosaurs: every card ability (rules/smash-up-cards.md §3).

Already in the core (``game.py``), not here: the power of War Raptor, Armor Stego (its mark,
``Minion.stego``, cleared by ``start_of_turn``) and Upgrade (``power``); the protection of Tooth
and Claw...and Guns and Wildlife Preserve (``affectable``, and ``protect`` on every arrival);
Rampage's reduction ends with the turn (``end_of_turn``). King Rex has no ability.

Where the spec leaves the option lists or the baseline open we decide (the kernel mirrors these):
- Lasertops: options are the eligible minions of its base in arrival order, then None; the
  default ties go to the earlier arrival.
- A helpful effect the baseline must give although it has no minion of its own (Augmentation,
  Tooth and Claw, Upgrade played by Mass Enchantment, or a forced play) goes to the
  lowest-power legal minion (ties: board order); Augmentation without a vp_now-raising target
  falls back to HELP over all its targets first.
- Natural Selection: first choice (key "Natural Selection") among your minions in board order,
  second ("Natural Selection:target") among the weaker minions there in arrival order. The
  baseline's pair is the other player's target ranked HIT bases first, then highest power
  (ties: smaller gap, lower slot, earlier arrival), reached by your first minion in board order
  on its base with more power. Without such a pair the first choice is your minion with no
  weaker minion on its base, else your lowest-power one (ties: board order); the target then
  follows HIT (mandatory [D9]).
- Rampage: options are your minions in board order (the base is the chosen minion's). The
  baseline plays it on the first base in slot order where your highest-power minion's reduction
  makes the base ready with you alone first; otherwise (forced) your highest-power minion.
- Survival of the Fittest: one choice per base (slot order) among its lowest-power destroyable
  minions in arrival order, made even when there is one candidate.
- Wildlife Preserve: the baseline plays it when you have a minion in play.
"""
from __future__ import annotations

from .. import abilities as ab
from ..baseline import V, gap, help_, hit, outranked


def _weakest(g, options) -> int:
    return min(range(len(options)), key=lambda i: (g.power(options[i]), i))


def _help_default(g, p, options) -> int:
    i = help_(g, p, options)
    return _weakest(g, options) if i is None else i


# ---- Lasertops, Armor Stego ------------------------------------------------------------
def lasertops(g, m):
    p = m.controller
    options = [x for x in m.slot.minions if x.card.power <= 2 and g.destroyable(x, p, False)]
    theirs = [i for i, x in enumerate(options) if x.controller != p]
    default = max(theirs, key=lambda i: (g.power(options[i]), -i)) if theirs else len(options)
    x = g.choose(p, "Lasertops", options + [None], default)
    if x is not None:
        g.destroy([x], p, False)


def stego_use(g, p, x):
    x.stego = True  # +2 on other players' turns (Game.power) until the start of p's turn


# ---- Augmentation, Howl ------------------------------------------------------------------
def _targets(g, c):
    return [m for m in g.minions() if g.affectable(m, c, True)]


def _raises_vp(g, p, m, by) -> bool:
    before = g.vp_now(m.slot)[p]
    m.temp += by
    after = g.vp_now(m.slot)[p]
    m.temp -= by
    return after > before


def _augment_pick(g, p, options):
    """HELP among your minions whose +4 raises your vp_now there; None if none."""
    good = [m for m in options if m.controller == p and _raises_vp(g, p, m, 4)]
    i = help_(g, p, good)
    return None if i is None else options.index(good[i])


def augmentation(g, c, card):
    options = _targets(g, c)
    if options:
        i = _augment_pick(g, c, options)
        m = g.choose(c, "Augmentation", options, _help_default(g, c, options) if i is None else i)
        g.boost(m, c, temp=4)


def augmentation_want(g, p, card) -> bool:
    return _augment_pick(g, p, _targets(g, p)) is not None


def _howled(g, c):
    return [m for m in g.minions_of(c) if g.affectable(m, c, True)]


def howl(g, c, card):
    for m in _howled(g, c):  # minions in play now only
        g.boost(m, c, temp=1)


def howl_want(g, p, card) -> bool:
    mine = _howled(g, p)
    before = V(g, p)
    for m in mine:
        m.temp += 1
    after = V(g, p)
    for m in mine:
        m.temp -= 1
    return after > before


# ---- Natural Selection -------------------------------------------------------------------
def _weaker(g, c, m):
    return [t for t in m.slot.minions if g.power(t) < g.power(m) and g.destroyable(t, c, True)]


def _ns_key(g, p, t):
    return (not outranked(g, p, t.slot), -g.power(t), gap(g, t.slot), t.slot.index, t.entered)


def _ns_pair(g, p):
    """The baseline's (your minion, other player's target), or None."""
    best = None
    for m in g.minions_of(p):
        for t in _weaker(g, p, m):
            if t.controller != p and (best is None or _ns_key(g, p, t) < _ns_key(g, p, best[1])):
                best = (m, t)
    return best


def natural_selection(g, c, card):
    mine = g.minions_of(c)
    if not mine:
        return
    pair = _ns_pair(g, c)
    if pair is not None:
        default = mine.index(pair[0])
    else:
        default = min(range(len(mine)), key=lambda i: (bool(_weaker(g, c, mine[i])), g.power(mine[i]), i))
    m = g.choose(c, "Natural Selection", mine, default)
    targets = _weaker(g, c, m)
    if not targets:
        return
    if pair is not None and pair[1] in targets:
        default = targets.index(pair[1])
    else:
        default = hit(g, c, targets, mandatory=True)
    g.destroy([g.choose(c, "Natural Selection:target", targets, default)], c, True)


def natural_selection_want(g, p, card) -> bool:
    return _ns_pair(g, p) is not None


# ---- Rampage -----------------------------------------------------------------------------
def _rampage_wins(g, p, m) -> bool:
    """Would m's reduction make its base ready with p alone in first place?"""
    slot = m.slot
    if g.total_power(slot) < max(0, g.breakpoint(slot) - g.power(m)):
        return False
    firsts = [q for q, place_ in g.places(slot).items() if place_ == 0]
    return firsts == [p]


def _rampage_default(g, p, mine):
    """(index of the baseline's minion, whether the baseline plays Rampage)."""
    for s in g.slots:
        here = [i for i, m in enumerate(mine) if m.slot is s]
        if here:
            i = max(here, key=lambda i: (g.power(mine[i]), -i))
            if _rampage_wins(g, p, mine[i]):
                return i, True
    return max(range(len(mine)), key=lambda i: (g.power(mine[i]), -i)), False


def rampage(g, c, card):
    mine = g.minions_of(c)
    if mine:
        m = g.choose(c, "Rampage", mine, _rampage_default(g, c, mine)[0])
        m.slot.reduction += g.power(m)  # fixed now; floored in Game.breakpoint [D11]


def rampage_want(g, p, card) -> bool:
    mine = g.minions_of(p)
    return bool(mine) and _rampage_default(g, p, mine)[1]


# ---- Survival of the Fittest ---------------------------------------------------------------
def _sotf_candidates(g, c):
    """Per base with unequal powers: its lowest-power minions c's card can destroy [D38]."""
    out = []
    for s in g.slots:
        powers = [g.power(m) for m in s.minions]
        if len(set(powers)) > 1:
            low = min(powers)
            cands = [m for m in s.minions if g.power(m) == low and g.destroyable(m, c, True)]
            if cands:
                out.append(cands)
    return out


def survival(g, c, card):
    chosen = [g.choose(c, "Survival of the Fittest", cands, hit(g, c, cands, mandatory=True))
              for cands in _sotf_candidates(g, c)]
    if chosen:
        g.destroy(chosen, c, True)  # together [D19]


def survival_want(g, p, card) -> bool:
    victims = [cands[hit(g, p, cands, mandatory=True)] for cands in _sotf_candidates(g, p)]
    theirs = sum(g.power(m) for m in victims if m.controller != p)
    return theirs > sum(g.power(m) for m in victims if m.controller == p)


# ---- Tooth and Claw...and Guns, Upgrade, Wildlife Preserve ---------------------------------
def help_host(g, c, card, hosts) -> int:
    return _help_default(g, c, hosts)


def help_want(g, p, card) -> bool:
    return help_(g, p, _targets(g, p)) is not None


def tooth_and_claw(g, a):
    g.protect(a.host)  # other players' actions on it are discarded [D7]


def preserve_host(g, c, card, hosts) -> int:
    return max(range(len(hosts)), key=lambda i: (g.player_power(c, hosts[i]), -gap(g, hosts[i]), -i))


def preserve(g, a):
    for m in list(a.host.minions):
        if m.controller == a.controller:
            g.protect(m)  # [D7]; later arrivals are protected by play_minion / move [D40]


def preserve_want(g, p, card) -> bool:
    return bool(g.minions_of(p))


ab.ON_PLAY["Lasertops"] = lasertops
ab.TALENT["Armor Stego"] = (lambda g, p, x: True, stego_use, lambda g, p, x: True)
ab.ACTION.update({"Augmentation": augmentation, "Howl": howl, "Natural Selection": natural_selection,
                  "Rampage": rampage, "Survival of the Fittest": survival})
ab.ATTACH.update({"Tooth and Claw...and Guns": tooth_and_claw, "Wildlife Preserve": preserve})
ab.HOST.update({"Tooth and Claw...and Guns": help_host, "Upgrade": help_host,
                "Wildlife Preserve": preserve_host})
ab.WANT.update({"Augmentation": augmentation_want, "Howl": howl_want,
                "Natural Selection": natural_selection_want, "Rampage": rampage_want,
                "Survival of the Fittest": survival_want, "Tooth and Claw...and Guns": help_want,
                "Upgrade": help_want, "Wildlife Preserve": preserve_want})
