"""Where card and base abilities plug into the reference game, and the order they resolve in.

Each faction module in ``cards/`` and ``bases.py`` fill these tables, keyed by card name:

- ``ON_PLAY[name](g, m)``: a minion's on-play ability (m just entered play);
- ``ACTION[name](g, c, card)``: an action that resolves and is discarded (c: its controller);
- ``ATTACH[name](g, a)``: a play-on action right after it attached (a: ``Attached``);
- ``HOST[name](g, c, card, hosts) -> index``: the baseline's host for a play-on action;
- ``WANT[name](g, p, card) -> bool``: whether the baseline plays this action now;
- ``TALENT[name] = (usable(g, p, x), use(g, p, x), want(g, p, x))``: a talent of a card x in play;
- ``AFTER_PLAYED[name](g, x, m)``: a card x in play reacting to minion m having been played;
  ``SPENT_AFTER_PLAYED``: the names among them whose reaction uses the card up (Flame Trap);
  ``HERE_AFTER_PLAYED``: those that react to a minion another player plays on their own base
  (Leprechaun, Flame Trap, Pay the Piper; not Brownie, which reacts to one played elsewhere);
- ``AFTER_AFFECTED[name](g, p, m)``: minion m reacting to a card played by p whose own steps
  affected it (``Game.touch``), when that play's own steps end;
- ``AFTER_DESTROYED[name](g, m, slot)`` / ``AFTER_DISCARDED[name](g, m)``: a minion's own trigger;
- ``START[name](g, p, x)`` / ``END[name](g, p, x)``: turn-edge abilities of a card x in play;
- ``BEFORE[name] = (options(g, q, slot), do(g, q, slot, opt), want(g, q, slot, opt))``: a
  before-scoring Special; ``AFTER[name](g, q, slot, m)``: an after-scoring Special (Scout ...);
- ``BASES[name]``: an object with any of ``after_played``, ``scoring_vp``, ``after_scoring``,
  ``after_replaced``, ``after_destroyed``, ``start_of_turn``.

Order of simultaneous triggers (§1.10, [D13]): base abilities first, then players' cards in
turn order from the current player, each player's own in the order they entered play; after a
minion is played, a player's reactions that spend nothing come before those that use their card
up (the baseline's order: Leprechaun before Flame Trap, so the trap is kept when the Leprechaun
has already destroyed the minion). That order is the baseline's: a player whose cards react to a
minion another player put on their base picks which of them goes next (``next_reaction``).
"""
from __future__ import annotations

ON_PLAY: dict = {}
ACTION: dict = {}
ATTACH: dict = {}
HOST: dict = {}
WANT: dict = {}
TALENT: dict = {}
AFTER_PLAYED: dict = {}
SPENT_AFTER_PLAYED: set = set()
HERE_AFTER_PLAYED: set = set()
AFTER_AFFECTED: dict = {}
AFTER_DESTROYED: dict = {}
AFTER_DISCARDED: dict = {}
START: dict = {}
END: dict = {}
BEFORE: dict = {}
AFTER: dict = {}
BASES: dict = {}


def cards_in_play_by_order(g, spent_last=frozenset()):
    """Minions and attached actions, grouped by controller in turn order, each by entry; the
    names in ``spent_last`` after the rest of their controller's."""
    items = [m for m in g.minions()] + g.attached_anywhere()
    order = g.turn_order()
    return sorted(items, key=lambda x: (order.index(x.controller), x.card.name in spent_last, x.entered))


def _base_hook(g, slot, hook):
    base = BASES.get(slot.name)
    if base is not None and g.active(slot):
        return getattr(base, hook, None)
    return None


# ---- minions and actions played ---------------------------------------------------------------
def on_play(g, m):
    fn = ON_PLAY.get(m.name)
    if fn is not None and m.card.kind != "dual":
        fn(g, m)
    elif m.card.kind == "dual" and "Pixie" in ON_PLAY:
        ON_PLAY["Pixie"](g, m)


def after_minion_played(g, m, slot):
    fn = _base_hook(g, slot, "after_played")
    if fn is not None:
        fn(g, slot, m)
    xs = [x for x in cards_in_play_by_order(g, SPENT_AFTER_PLAYED) if x.card.name in AFTER_PLAYED]
    while xs:
        x = xs.pop(next_reaction(g, xs, m, slot))
        if _still_in_play(g, x):
            AFTER_PLAYED[x.card.name](g, x, m)


def next_reaction(g, xs, m, slot) -> int:
    """Which of the after-played cards ``xs`` (in the baseline's order) resolves next: a player
    orders its own reactions (§1.10), so when ``xs[0]`` and one or more other cards of its
    controller in play react to minion ``m`` another player put on their base ``slot``, that
    player picks one (default: ``xs[0]``). A reaction whose condition then fails, such as a
    Leprechaun facing a stronger minion, still counts. Brownie's reaction to a minion played
    elsewhere keeps its place: two Brownies' draws give the same hand whichever draws first."""
    def reacts(x):
        return (x.controller != m.controller and x.card.name in HERE_AFTER_PLAYED
                and _still_in_play(g, x) and slot_of(x) is slot)

    if not reacts(xs[0]):
        return 0
    mine = [i for i, x in enumerate(xs) if x.controller == xs[0].controller and reacts(x)]
    pick = g.choose(xs[0].controller, "after played: next", [xs[i] for i in mine], 0)
    return next(i for i in mine if xs[i] is pick)


def slot_of(x):
    """The base a card in play is on (an action on a minion: its minion's base)."""
    from .state import Minion  # noqa: PLC0415
    if isinstance(x, Minion):
        return x.slot
    return x.host.slot if isinstance(x.host, Minion) else x.host


def after_affected(g, p, affected):
    """The minions a card played by ``p`` affected, in the order first affected, react (2012
    Brownie), whether they are still in play or not [D30]."""
    for m in affected:
        fn = AFTER_AFFECTED.get(m.name)
        if fn is not None:
            fn(g, p, m)


def _still_in_play(g, x):
    from .state import Minion  # noqa: PLC0415
    if isinstance(x, Minion):
        return x in x.slot.minions
    host = x.host
    return x in (host.attached if isinstance(host, Minion) else host.actions)


def resolve_action(g, c, card):
    name = "Pixie" if card.kind == "dual" else card.name
    fn = ACTION.get(name)
    if fn is not None:
        fn(g, c, card)


def on_attach(g, a):
    fn = ATTACH.get(a.card.name)
    if fn is not None:
        fn(g, a)


def host_default(g, c, card, hosts):
    fn = HOST.get(card.name)
    return fn(g, c, card, hosts) if fn is not None else 0


def want(g, p, card) -> bool:
    name = "Pixie" if card.kind == "dual" else card.name
    fn = WANT.get(name)
    return bool(fn(g, p, card)) if fn is not None else False


# ---- talents --------------------------------------------------------------------------------
def talent_moves(g, p):
    """Usable talents of ``p``'s cards in play, as ("talent", x) moves in board order."""
    out = []
    for x in g.minions() + g.attached_anywhere():
        t = TALENT.get(x.card.name)
        if t is not None and x.controller == p and not x.talent_used and t[0](g, p, x):
            out.append(("talent", x))
    return out


def use_talent(g, p, x):
    x.talent_used = True
    TALENT[x.card.name][1](g, p, x)


def talent_wanted(g, p, x) -> bool:
    return bool(TALENT[x.card.name][2](g, p, x))


def ctgy_moves(g, p):
    """They're Coming To Get You: a minion from the discard pile onto its base, once a turn."""
    fn = TALENT.get("They're Coming To Get You:moves")
    return fn(g, p) if fn is not None else []


# ---- leaving play ------------------------------------------------------------------------------
def base_after_destroyed(g, m, slot):
    fn = _base_hook(g, slot, "after_destroyed")
    if fn is not None:
        fn(g, slot, m)


def after_destroyed(g, m, slot):
    fn = AFTER_DESTROYED.get(m.name)
    if fn is not None:
        fn(g, m, slot)


def after_discarded_from_play(g, m):
    fn = AFTER_DISCARDED.get(m.name)
    if fn is not None:
        fn(g, m)


# ---- turn edges ------------------------------------------------------------------------------
def start_of_turn(g, p):
    for x in cards_in_play_by_order(g):
        fn = START.get(x.card.name)
        if fn is not None and x.controller == p and _still_in_play(g, x):
            fn(g, p, x)
    for slot in list(g.slots):
        if slot in g.slots:
            fn = _base_hook(g, slot, "start_of_turn")
            if fn is not None:
                fn(g, slot, p)


def end_of_turn(g, p):
    for x in cards_in_play_by_order(g):
        fn = END.get(x.card.name)
        if fn is not None and _still_in_play(g, x):
            fn(g, p, x)


# ---- scoring ---------------------------------------------------------------------------------
def before_scoring_window(g, slot):
    """From the current player clockwise, each uses one before-scoring Special or passes,
    until every player has passed in succession (§1.2)."""
    g.window = {"slot": slot, "used": set()}
    passes, k = 0, 0
    for _ in range(1000):
        if passes >= g.n or slot not in g.slots:
            break
        q = (g.current + k) % g.n
        options = []
        for name, (opts, _, _) in BEFORE.items():
            options += [(name, o) for o in opts(g, q, slot)]
        default = next((i for i, (name, o) in enumerate(options) if BEFORE[name][2](g, q, slot, o)),
                       len(options))
        pick = g.choose(q, "before-scoring", options + [None], default)
        if pick is None:
            passes += 1
        else:
            passes = 0
            BEFORE[pick[0]][1](g, q, slot, pick[1])
        k += 1
    g.window = None


def base_scoring_vp(g, slot, places, gained):
    fn = getattr(BASES.get(slot.name), "scoring_vp", None)
    if fn is not None:
        fn(g, slot, places, gained)


def base_after_scoring(g, slot, winners, runners, places):
    fn = getattr(BASES.get(slot.name), "after_scoring", None)
    return fn(g, slot, winners, runners, places) if fn is not None else None


def after_scoring_specials(g, slot):
    for q in g.turn_order():
        for m in [m for m in slot.minions if m.controller == q]:
            fn = AFTER.get(m.name)
            if fn is not None and m in slot.minions:
                fn(g, q, slot, m)


def base_after_replaced(g, old, new, runners):
    fn = getattr(BASES.get(old.name), "after_replaced", None)
    if fn is not None:
        fn(g, old, new, runners)
