"""Tricksters: every card ability, the current list (rules/smash-up-cards.md §7) and the 2012 list
(§8, ``Rules(tricksters="2012")``); handlers branch on ``g.rules.tricksters`` where they differ.

Already in the core (``game.py``), not here: Block the Path and Overrun in ``minion_allowed``
(reading ``Attached.named``); the current Hideout's "other players cannot move minions here" and
Mark of Sleep's "cannot move" in ``can_move``; Mark of Sleep's "cannot play actions" in
``can_play_actions`` (``g.sleep`` cleared at the start of its player's turn).

In the core too: the 2012 Hideout's shield (``Game.touch``, which the primitives ask before they
affect a minion); the 2012 Brownie reacts through ``AFTER_AFFECTED``, which the core calls when a
played card's own steps end (``Game.end_play``).

Choices the spec leaves open, decided here (the kernel mirrors them):
- Option orders: minions in board order (slot, then arrival), attached actions as
  ``Game.attached_anywhere`` lists them (bases in slot order, then minions in board order), bases
  in slot order, cards in hand order then deck order (bottom first); a "may" ends with None.
- "You lead" on a base: your power there > every other player's; "an opponent leads": some other
  player's power there > yours. A host default with no such base falls back to the smallest gap
  (ties: lower slot). Actions whose Default names no hold condition are always played (Block the
  Path, Flame Trap, Hideout, Mark of Sleep, Pay the Piper, Take The Shinies).
- Leprechaun (current): the once-per-turn use is spent when the minion leaves the base (destroyed,
  or replaced by Buccaneer's move or Tar Pits) [D29]; a minion it cannot destroy spends nothing.
- Brownie (current), Leprechaun, Flame Trap, Pay the Piper: "played here / on another base" is
  read from the minion's base after its on-play ability (its base when it left play, if it left).
- Gnome (current): one option per eligible minion, with the first unused Gnome (arrival order) of
  the player on the scoring base (the Gnomes are alike).
- Gremlin: "each other player" = the other players in turn order after the Gremlin's owner.
- Pixie: minion mode asks a "may" per minion of yours here (arrival order), a counter each;
  action mode destroys (key "Pixie:action") then places each counter in turn ("Pixie:counter",
  HELP each time). Its action-mode target default: another player's action on a base (or on a
  minion on a base) where an opponent outranks you, else another player's first action, else the
  first action. The baseline plays it as an action (WANT) when the counter condition fails (hand
  size counted without the Pixie) and another player's action is in play.
- Block the Path: current names one faction per other player (turn order after you, their two
  factions in draft order, key "Block the Path:faction"); 2012 names one faction among all other
  players' factions listed that way. "More minion cards" counts minion and Pixie copies.
- Enshrouding Mist: the talent is always usable; the baseline uses it when it holds a minion
  that may be played on that base, and plays the card when it holds a minion. Default host: PLACE
  for the best hand minion (highest printed power, first in hand).
- Hideout (current): candidates from hand, then deck; the talent searches the deck, so an empty
  one is first rebuilt from the discard pile (§1.9, as Scry), and the talent is usable when only
  the discard pile holds a candidate. The swapped-in card takes Hideout's place (its index and
  its entry order); the baseline swaps in the first candidate in hand.
- Disenchant (2012): the mandatory target when no default one exists is another player's first
  action, else the first action.
"""
from __future__ import annotations

from .. import abilities as ab
from ..baseline import gap, help_, hit, outranked, place
from ..game import PLAY_ON_BASE
from ..state import Attached, Slot

DISENCHANT_BASE_TARGETS = ("Overrun", "Block the Path", "Flame Trap", "Pay the Piper",
                           "Jammed Signal", "Wildlife Preserve")


def _current(g) -> bool:
    return g.rules.tricksters == "current"


# ---- shared baseline helpers (zombies.py uses ``lead_host``) ------------------------------------
def _others_max(g, p, slot) -> int:
    return max(g.player_power(q, slot) for q in range(g.n) if q != p)


def _lead(g, p, slot) -> int:
    return g.player_power(p, slot) - _others_max(g, p, slot)


def _smallest_gap(g, hosts, among=None) -> int:
    idx = list(range(len(hosts))) if among is None else among
    return min(idx, key=lambda i: (gap(g, hosts[i]), i))


def lead_host(g, c, card, hosts) -> int:
    """The base where you lead with the smallest gap (else the smallest gap)."""
    leads = [i for i, s in enumerate(hosts) if _lead(g, c, s) > 0]
    return _smallest_gap(g, hosts, leads or None)


def _opponent_pick(g, p) -> int:
    """Most VP; ties: the next in turn order after you (§1.11). A seat."""
    others = g.others(p)
    return others[max(range(len(others)), key=lambda i: (g.players[others[i]].vp, -i))]


def _best_card(cards) -> int | None:
    """Index of the highest printed power (ties: the first)."""
    if not cards:
        return None
    return max(range(len(cards)), key=lambda i: (cards[i].power, -i))


def destroy_action_default(g, p, actions) -> int | None:
    """Another player's action on a base where an opponent outranks you, else another player's
    first action; None when every action is yours."""
    theirs = [i for i, a in enumerate(actions) if a.controller != p]
    hot = [i for i in theirs if outranked(g, p, ab.slot_of(actions[i]))]
    return (hot or theirs or [None])[0]


# ---- 1. Leprechaun --------------------------------------------------------------------------
def leprechaun(g, x, m):
    if m.controller == x.controller or m.slot is not x.slot or m not in x.slot.minions:
        return
    once = _current(g)
    key = ("leprechaun", x.card.uid)
    if once and key in g.flags:
        return
    if g.power(m) >= g.power(x) or not g.destroyable(m, x.controller, False):
        return
    g.destroy([m], x.controller, False)
    if once and m not in x.slot.minions:  # spent only when it removed the minion [D29]
        g.flags.add(key)


# ---- 2. Brownie -----------------------------------------------------------------------------
def brownie(g, x, m):
    """Current: draw 1 after another player plays a minion on another base, once per turn."""
    if not _current(g) or m.controller == x.controller or m.slot is x.slot:
        return
    key = ("brownie", x.card.uid)
    if key not in g.flags:
        g.flags.add(key)
        g.draw(x.controller)


def brownie_affected(g, p, m):
    """2012: the player whose card affected this Brownie discards two random cards, also when it
    removed the Brownie [D30]. Called by the core when the own steps of a card played by ``p``
    end, once per minion they affected (``AFTER_AFFECTED``)."""
    if not _current(g) and p != m.controller:
        g.discard_random(p, 2)


# ---- 3. Gnome -------------------------------------------------------------------------------
def gnome_targets(g, p, slot):
    n = sum(1 for m in slot.minions if m.controller == p)  # the core set has no titans
    return [m for m in slot.minions if g.power(m) < n and g.destroyable(m, p, False)]


def gnome_options(g, q, slot):
    """Current: before this base scores, (the first unused Gnome of q here, a target) [D26]."""
    if not _current(g):
        return []
    gnome = next((m for m in slot.minions if m.name == "Gnome" and m.controller == q
                  and ("gnome", m.card.uid) not in g.window["used"]), None)
    if gnome is None:
        return []
    return [(gnome, t) for t in gnome_targets(g, q, slot)]


def gnome_do(g, q, slot, opt):
    gnome, target = opt
    g.window["used"].add(("gnome", gnome.card.uid))
    g.destroy([target], q, False)


def _vp_without(g, p, m) -> int:
    slot = m.slot
    i = slot.minions.index(m)
    slot.minions.pop(i)
    vp = g.vp_now(slot)[p]
    slot.minions.insert(i, m)
    return vp


def gnome_want(g, q, slot, opt):
    """The highest-power eligible minion of another player, when that raises your vp_now."""
    _, target = opt
    theirs = [m for m in gnome_targets(g, q, slot) if m.controller != q]
    if not theirs:
        return False
    best = max(theirs, key=lambda m: (g.power(m), -m.entered))
    return target is best and _vp_without(g, q, best) > g.vp_now(slot)[q]


def gnome_2012(g, m):
    """2012 on play: you may destroy a minion here with power < your minions here."""
    if _current(g):
        return
    p = m.controller
    targets = gnome_targets(g, p, m.slot)
    i = hit(g, p, targets)
    x = g.choose(p, "Gnome", targets + [None], len(targets) if i is None else i)
    if x is not None:
        g.destroy([x], p, False)


# ---- 4. Gremlin -----------------------------------------------------------------------------
def gremlin_destroyed(g, m, slot):
    """Both lists: its owner draws 1, then each other player discards a random card."""
    owner = m.card.owner
    g.draw(owner)
    for q in g.others(owner):
        g.discard_random(q, 1)


def gremlin_discarded(g, m):
    """Current: discarded because its base scored still draws (§1.6); 2012: nothing."""
    if _current(g):
        g.draw(m.card.owner)


# ---- 5. Pixie (current list only) -----------------------------------------------------------
def _more_cards_than_someone(g, p, k) -> bool:
    return any(k > len(g.players[q].hand) for q in g.others(p))


def pixie_minion(g, m):
    p = m.controller
    if not _more_cards_than_someone(g, p, len(g.players[p].hand)):
        return
    for x in [x for x in m.slot.minions if x.controller == p]:
        if g.affectable(x, p, False) and g.may(p, "Pixie", x, True) is not None:
            g.boost(x, p, counters=1)


def pixie_action(g, c, card):
    actions = g.attached_anywhere()
    if not actions:  # "do X to do Y": no X, no Y [D10]
        return
    i = destroy_action_default(g, c, actions)
    g.discard_action(g.choose(c, "Pixie:action", actions, 0 if i is None else i))
    for _ in range(2):
        mine = [m for m in g.minions_of(c) if g.affectable(m, c, True)]
        if not mine:
            return
        g.boost(g.choose(c, "Pixie:counter", mine, help_(g, c, mine)), c, counters=1)


def pixie_want(g, p, card) -> bool:
    """As an action: the counter condition fails and another player's action is in play."""
    if _more_cards_than_someone(g, p, len(g.players[p].hand) - 1):
        return False
    return any(a.controller != p for a in g.attached_anywhere())


# ---- 6. Block the Path ----------------------------------------------------------------------
def _minion_cards(g, faction) -> int:
    return sum(c.copies for c in g.cat.factions[faction] if c.kind != "action")


def _block_default(g, factions) -> int:
    """More minion cards, Robots first; ties: the first (drafted first)."""
    return max(range(len(factions)),
               key=lambda i: (factions[i] == "Robots", _minion_cards(g, factions[i]), -i))


def name_factions(g, a):
    """Name the factions now (on play, or when Hideout swaps it in [D21])."""
    c = a.controller
    if _current(g):
        named = []
        for q in g.others(c):
            fs = list(g.players[q].factions)
            named.append(g.choose(c, "Block the Path:faction", fs, _block_default(g, fs)))
        a.named = tuple(named)
        return
    options = [f for q in g.others(c) for f in g.players[q].factions]
    mark = list(g.players[_opponent_pick(g, c)].factions)
    default = options.index(mark[_block_default(g, mark)])
    a.named = (g.choose(c, "Block the Path:faction", options, default),)


# ---- 7. Enshrouding Mist --------------------------------------------------------------------
def mist_host(g, c, card, hosts) -> int:
    minions = [x for x in g.players[c].hand if x.is_minion]
    i = _best_card(minions)
    if i is not None:
        legal = [s for s in hosts if g.minion_allowed(c, minions[i], s)]
        if legal:
            return hosts.index(place(g, c, minions[i], legal))
    return _smallest_gap(g, hosts)


def mist_use(g, p, x):
    g.grant_minion(p, "M@", x.host)


def mist_want(g, p, x) -> bool:
    return any(c.is_minion and g.minion_allowed(p, c, x.host) for c in g.players[p].hand)


# ---- 8. Flame Trap --------------------------------------------------------------------------
def flame_trap(g, x, m):
    if m.controller == x.controller or m.slot is not x.host:
        return
    killable = m in x.host.minions and g.destroyable(m, x.controller, True)
    if _current(g):
        if killable:  # destroy this card to destroy that minion [D10]
            g.discard_action(x)
            g.destroy([m], x.controller, True)
        return
    if killable:  # 2012: the minion and the trap, the trap even when the minion survives [D10]
        g.destroy([m], x.controller, True)
    if x in x.host.actions:
        g.discard_action(x)


def flame_trap_host(g, c, card, hosts) -> int:
    behind = [i for i, s in enumerate(hosts) if _others_max(g, c, s) > g.player_power(c, s)]
    return _smallest_gap(g, hosts, behind or None)


def flame_trap_start(g, p, x):
    """Current: you may reduce this base's breakpoint by 4 until the end of the turn."""
    if not _current(g):
        return
    places = g.places(x.host)
    alone_first = places.get(p) == 0 and list(places.values()).count(0) == 1
    if g.may(p, "Flame Trap", True, alone_first) is not None:
        x.host.reduction += 4


# ---- 9. Hideout -----------------------------------------------------------------------------
def hideout_host(g, c, card, hosts) -> int:
    """The base where you lead by most (both lists); ties: lower slot."""
    return max(range(len(hosts)), key=lambda i: (_lead(g, c, hosts[i]), -i))


def _swap_candidates(g, p):
    """("hand" or "deck", card) in hand order, then deck order (bottom first); an empty deck's
    are the discard pile's, the deck the search would rebuild (§1.9)."""
    pl = g.players[p]
    return ([("hand", c) for c in pl.hand if c.name in PLAY_ON_BASE]
            + [("deck", c) for c in (pl.deck or pl.discard) if c.name in PLAY_ON_BASE])


def _small_theirs(g, p, slot):
    return [m for m in slot.minions if g.power(m) <= 2 and g.destroyable(m, p, True)]


def hideout_usable(g, p, x) -> bool:
    return _current(g) and bool(_swap_candidates(g, p))  # no candidate, no talent [D21]


def hideout_use(g, p, x):
    slot = x.host
    g.refill(p)  # the search rebuilds an empty deck first (§1.9)
    options = _swap_candidates(g, p)
    src, card = g.choose(p, "Hideout:swap", options, 0)
    i = slot.actions.index(x)
    slot.actions.pop(i)
    new = Attached(card, p, slot, x.entered)  # takes Hideout's place
    slot.actions.insert(i, new)
    pl, owner = g.players[p], g.players[x.card.owner]  # a card leaving play goes to its owner's (§1.1)
    if src == "hand":
        pl.hand.remove(card)
        owner.hand.append(x.card)
    else:
        pl.deck.remove(card)
        owner.deck.append(x.card)
        g.shuffle(owner.deck)  # [D17]
        if pl is not owner:
            g.shuffle(pl.deck)  # the searched deck too (Mass Enchantment's Hideout)
    g.log.append(("swap-action", "Hideout", card.name, p))
    if card.name == "Block the Path":  # not a play: only the naming happens [D21]
        name_factions(g, new)
    targets = _small_theirs(g, p, slot)
    j = hit(g, p, targets)
    m = g.choose(p, "Hideout:destroy", targets + [None], len(targets) if j is None else j)
    if m is not None:
        g.destroy([m], p, True)


def hideout_want(g, p, x) -> bool:
    return (any(src == "hand" for src, _ in _swap_candidates(g, p))
            and any(m.controller != p for m in _small_theirs(g, p, x.host)))


# ---- 10. Mark of Sleep ----------------------------------------------------------------------
def mark_of_sleep(g, c, card):
    if _current(g):
        for q in g.others(c):  # until the start of your next turn [D36]
            default = 1 if "Pirates" in g.players[q].factions else 0
            g.sleep[q] = (g.choose(c, "Mark of Sleep", ["actions", "moves"], default), c)
        return
    others = g.others(c)
    q = g.choose(c, "Mark of Sleep", others, others.index(_opponent_pick(g, c)))
    g.sleep[q] = ("actions_on_turn", c)  # 2012: "during that player's next turn" only


# ---- 11. Pay the Piper ----------------------------------------------------------------------
def pay_the_piper(g, x, m):
    if m.controller != x.controller and m.slot is x.host:
        g.discard_choice(m.controller, "Pay the Piper")


def piper_host(g, c, card, hosts) -> int:
    return max(range(len(hosts)), key=lambda i: (_others_power(g, c, hosts[i]), -i))


def _others_power(g, p, slot) -> int:
    return sum(g.power(m) for m in slot.minions if m.controller != p)


# ---- 12. Take The Shinies -------------------------------------------------------------------
def take_the_shinies(g, c, card):
    for q in g.others(c):
        g.discard_random(q, 2)


# ---- 2012: Disenchant -----------------------------------------------------------------------
def disenchant_default(g, p, actions) -> int | None:
    """Another player's action: first one on a minion of a base where an opponent outranks you,
    then one on a base among the listed names; None (hold) if none."""
    theirs = [i for i, a in enumerate(actions) if a.controller != p]
    for i in theirs:
        if not isinstance(actions[i].host, Slot) and outranked(g, p, actions[i].host.slot):
            return i
    for i in theirs:
        if isinstance(actions[i].host, Slot) and actions[i].card.name in DISENCHANT_BASE_TARGETS:
            return i
    return None


def disenchant(g, c, card):
    actions = g.attached_anywhere()
    if not actions:
        return
    i = disenchant_default(g, c, actions)
    if i is None:
        theirs = [k for k, a in enumerate(actions) if a.controller != c]
        i = theirs[0] if theirs else 0
    g.discard_action(g.choose(c, "Disenchant", actions, i))


# ---- the tables -----------------------------------------------------------------------------
def _always(g, p, card) -> bool:
    return True


ab.ON_PLAY.update({"Pixie": pixie_minion, "Gnome": gnome_2012})
ab.ACTION.update({"Pixie": pixie_action, "Mark of Sleep": mark_of_sleep,
                  "Take The Shinies": take_the_shinies, "Take the Shinies": take_the_shinies,
                  "Disenchant": disenchant})
ab.ATTACH.update({"Block the Path": name_factions})
ab.HOST.update({"Block the Path": lead_host, "Enshrouding Mist": mist_host,
                "Flame Trap": flame_trap_host, "Hideout": hideout_host, "Pay the Piper": piper_host})
ab.WANT.update({
    "Pixie": pixie_want, "Block the Path": _always, "Flame Trap": _always, "Hideout": _always,
    "Mark of Sleep": _always, "Pay the Piper": _always, "Take The Shinies": _always,
    "Take the Shinies": _always,
    "Enshrouding Mist": lambda g, p, card: any(c.is_minion for c in g.players[p].hand),
    "Disenchant": lambda g, p, card: disenchant_default(g, p, g.attached_anywhere()) is not None,
})
ab.TALENT.update({
    "Enshrouding Mist": (lambda g, p, x: True, mist_use, mist_want),
    "Hideout": (hideout_usable, hideout_use, hideout_want),
})
ab.AFTER_PLAYED.update({"Leprechaun": leprechaun, "Brownie": brownie, "Flame Trap": flame_trap,
                        "Pay the Piper": pay_the_piper})
ab.SPENT_AFTER_PLAYED.add("Flame Trap")  # the trap goes with the minion (both lists)
ab.HERE_AFTER_PLAYED.update({"Leprechaun", "Flame Trap", "Pay the Piper"})
ab.AFTER_DESTROYED["Gremlin"] = gremlin_destroyed
ab.AFTER_DISCARDED["Gremlin"] = gremlin_discarded
ab.START["Flame Trap"] = flame_trap_start
ab.BEFORE["Gnome"] = (gnome_options, gnome_do, gnome_want)
ab.AFTER_AFFECTED["Brownie"] = brownie_affected
