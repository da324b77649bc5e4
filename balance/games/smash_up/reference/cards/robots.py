"""Robots: every card ability (rules/smash-up-cards.md §6).

Already in the core (``game.py``), not here: Warbot (``destroy``/``destroyable``), Microbot Alpha
and Microbot Fixer's power (``power``, ``is_microbot``) and Microbot Archive's draws (``destroy``).

Where the spec leaves the option lists open we decide (the kernel mirrors these):
- Hoverbot: options are the bases the revealed minion may be played on, in slot order, then
  None (it stays on top [D27]).
- Microbot Guard: options are the eligible minions of its base in arrival order (mandatory);
  default ties go to the earlier arrival.
- Microbot Reclaimer: one yes/no per Microbot card of your discard pile, in pile order (bottom
  first); the deck is shuffled only when at least one card went in.
- Tech Center: options are the bases in slot order; default ties go to the lower slot.
"""
from __future__ import annotations

from .. import abilities as ab
from ..baseline import place


# ---- Nukebot ------------------------------------------------------------------------------
def nukebot_destroyed(g, m, slot):
    """Only a real destruction gets here (returned, placed, moved instead, scored: no trigger)."""
    if slot not in g.slots:
        return
    victims = [x for x in slot.minions if x.controller != m.controller
               and g.destroyable(x, m.controller, False)]
    if victims:
        g.destroy(victims, m.controller, False)  # together [D19]


# ---- Hoverbot -----------------------------------------------------------------------------
def hoverbot(g, m):
    p = m.controller
    card = g.top(p)  # §1.9: an empty deck is rebuilt first
    if card is None or not card.is_minion:  # Pixie counts [D20]
        return
    slots = [s for s in g.slots if g.minion_allowed(p, card, s)]
    if not slots:
        return
    slot = g.choose(p, "Hoverbot", slots + [None], slots.index(place(g, p, card, slots)))
    if slot is not None:  # declined: it simply stays on top [D27]
        g.play_minion(p, card, slot, "deck")


# ---- Zapbot, Microbot Fixer, Microbot Reclaimer -------------------------------------------
def zapbot(g, m):
    g.grant_minion(m.controller, "M2")


def _first_minion(g, m) -> bool:
    """No other minion played by its controller earlier this turn (this one is counted)."""
    return g.minions_played[m.controller] == 1


def fixer(g, m):
    if _first_minion(g, m):
        g.grant_minion(m.controller, "M")


def reclaimer(g, m):
    p = m.controller
    if _first_minion(g, m):
        g.grant_minion(p, "M")
    pl = g.players[p]
    chosen = [c for c in list(pl.discard)  # out of play only the named cards are Microbots (§1.1)
              if c.name.startswith("Microbot") and g.may(p, "Microbot Reclaimer", c, True)]
    for c in chosen:
        pl.discard.remove(c)
        pl.deck.append(c)
    if chosen:
        g.shuffle(pl.deck)


# ---- Microbot Guard -----------------------------------------------------------------------
def guard(g, m):
    p, slot = m.controller, m.slot
    n = sum(1 for x in slot.minions if x.controller == p)
    eligible = [x for x in slot.minions if g.power(x) < n and g.destroyable(x, p, False)]
    if not eligible:
        return
    theirs = [i for i, x in enumerate(eligible) if x.controller != p]
    if theirs:
        default = max(theirs, key=lambda i: (g.power(eligible[i]), -i))
    else:  # mandatory: your own lowest-power eligible minion, the Guard itself included [D9]
        default = min(range(len(eligible)), key=lambda i: (g.power(eligible[i]), i))
    g.destroy([g.choose(p, "Microbot Guard", eligible, default)], p, False)


# ---- Tech Center --------------------------------------------------------------------------
def _mine_at(g, p, slot) -> int:
    return sum(1 for x in slot.minions if x.controller == p)


def _tech_default(g, p) -> int:
    return max(range(len(g.slots)), key=lambda i: (_mine_at(g, p, g.slots[i]), -i))


def tech_center(g, c, card):
    if not g.slots:
        return
    slot = g.choose(c, "Tech Center", list(g.slots), _tech_default(g, c))
    g.draw(c, _mine_at(g, c, slot))


def tech_center_want(g, p, card) -> bool:
    return bool(g.slots) and _mine_at(g, p, g.slots[_tech_default(g, p)]) >= 2


ab.AFTER_DESTROYED["Nukebot"] = nukebot_destroyed
ab.ON_PLAY.update({"Hoverbot": hoverbot, "Zapbot": zapbot, "Microbot Fixer": fixer,
                   "Microbot Reclaimer": reclaimer, "Microbot Guard": guard})
ab.ACTION["Tech Center"] = tech_center
ab.WANT["Tech Center"] = tech_center_want
