"""Dispatch of card hooks to the card's faction module (``cards/``), by the faction of the
card's definition; a hook goes only to the factions whose cards have it (the others' cards do
nothing there and get the neutral answer here). Faction numbers follow ``catalogue.FACTIONS``."""
from balance.core._jit import jit_inline
from balance.core._jit import jit_widened as jit

from ..catalogue import FACTIONS
from . import effects
from .cards import aliens, dinosaurs, ninjas, pirates, robots, tricksters, wizards, zombies
from .board import MODE_CARDS, R_MODE
from .layout import DONE, C_DEF, F_C, T_FACTIONS
from .tables import D_FACTION, D_PROG

# the factions whose rule-wide code runs only in their games (``in_game``)
ZOMBIES = FACTIONS.index("Zombies")


@jit
def card_step(st, d, hook, step):
    """The next step of card frame ``d`` (its card in ``fs[d, F_C]``): its program when the
    card has one for this hook (``effects``), else its faction module's code. A base's frame
    (``F_C`` < 0) runs the base's program."""
    cs, defs = st.cs, st.defs
    c = st.fs[d, F_C]
    if c < 0 or defs[cs[c, C_DEF], D_PROG + hook] >= 0:
        return effects.step(st, d, hook, step)
    f = faction_of(st, c)
    if f == 0:
        return aliens.card_step(st, d, hook, step)
    elif f == 1:
        return dinosaurs.card_step(st, d, hook, step)
    elif f == 2:
        return ninjas.card_step(st, d, hook, step)
    elif f == 3:
        return pirates.card_step(st, d, hook, step)
    elif f == 4:
        return robots.card_step(st, d, hook, step)
    elif f == 5:
        return tricksters.card_step(st, d, hook, step)
    elif f == 6:
        return wizards.card_step(st, d, hook, step)
    elif f == 7:
        return zombies.card_step(st, d, hook, step)
    return DONE


@jit
def want(st, p, c):
    if (st.rs[R_MODE] & MODE_CARDS) == 0:  # card abilities off: the reference's WANT is empty
        return False
    w = effects.want(st, p, c)
    if w >= 0:
        return w == 1
    f = faction_of(st, c)
    if f == 0:
        return aliens.want(st, p, c)
    elif f == 1:
        return dinosaurs.want(st, p, c)
    elif f == 2:
        return ninjas.want(st, p, c)
    elif f == 3:
        return pirates.want(st, p, c)
    elif f == 4:
        return robots.want(st, p, c)
    elif f == 5:
        return tricksters.want(st, p, c)
    elif f == 6:
        return wizards.want(st, p, c)
    elif f == 7:
        return zombies.want(st, p, c)
    return False


@jit
def talent_usable(st, p, x):
    u = effects.usable(st, p, x)
    if u >= 0:
        return u == 1
    f = faction_of(st, x)
    if f == 1:
        return dinosaurs.talent_usable(st, p, x)
    elif f == 2:
        return ninjas.talent_usable(st, p, x)
    elif f == 5:
        return tricksters.talent_usable(st, p, x)
    elif f == 6:
        return wizards.talent_usable(st, p, x)
    return False


@jit
def talent_want(st, p, x):
    f = faction_of(st, x)
    if f == 1:
        return dinosaurs.talent_want(st, p, x)
    elif f == 2:
        return ninjas.talent_want(st, p, x)
    elif f == 5:
        return tricksters.talent_want(st, p, x)
    elif f == 6:
        return wizards.talent_want(st, p, x)
    return False


@jit
def special_want(st, q, s, a, b):
    """Window option (card ``a``, target ``b`` or -1) of ``q`` before slot ``s`` scores: its
    card's faction module decides."""
    f = faction_of(st, a)
    if f == 2:
        return ninjas.special_want(st, q, s, a)
    elif f == 3:
        return pirates.special_want(st, q, s, a)
    elif f == 5:
        return tricksters.special_want(st, q, s, a, b)
    return False


@jit
def extra_want(st, p, i):
    """Move ``opt[i]`` added by a faction's ``extra_moves``: the card in play that offers it
    (``opt[i, 2]``, e.g. They're Coming To Get You; ``opt[i, 1]`` is the minion card to play,
    of any faction) decides the faction."""
    f = faction_of(st, st.opt[i, 2])
    if f == 7:
        return zombies.extra_want(st, p, i)
    return False


@jit
def faction_of(st, c):
    cs, defs = st.cs, st.defs
    return defs[cs[c, C_DEF], D_FACTION]


@jit_inline
def in_game(st, f):
    """Some deck of this game holds a card of faction ``f`` (``T_FACTIONS``)."""
    return (st.tv[T_FACTIONS] >> f) & 1 != 0


@jit
def extra_moves(st, p, n):
    """Play Cards moves a faction adds (They're Coming To Get You), asked at every greedy
    choice: the board is searched only in a game with Zombies."""
    return zombies.extra_moves(st, p, n) if in_game(st, ZOMBIES) else n
