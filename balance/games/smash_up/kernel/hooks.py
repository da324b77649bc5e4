"""Dispatch of card hooks to the card's faction module (``cards/``), by the faction of the
card's definition. Faction numbers follow ``catalogue.FACTIONS``."""
from balance.core._jit import jit_widened as jit

from .cards import aliens, dinosaurs, ninjas, pirates, robots, tricksters, wizards, zombies
from .board import MODE_CARDS, R_MODE
from .layout import C_DEF, DONE
from .tables import D_FACTION


@jit
def card_step(st, d, hook, step):
    """The next step of card frame ``d`` (its card in ``fs[d, F_C]``)."""
    f = faction_of(st, st[14][d, 3])  # fs[d, F_C]
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
def host(st, p, c, hosts, k):
    f = faction_of(st, c)
    if f == 0:
        return aliens.host(st, p, c, hosts, k)
    elif f == 1:
        return dinosaurs.host(st, p, c, hosts, k)
    elif f == 2:
        return ninjas.host(st, p, c, hosts, k)
    elif f == 3:
        return pirates.host(st, p, c, hosts, k)
    elif f == 4:
        return robots.host(st, p, c, hosts, k)
    elif f == 5:
        return tricksters.host(st, p, c, hosts, k)
    elif f == 6:
        return wizards.host(st, p, c, hosts, k)
    elif f == 7:
        return zombies.host(st, p, c, hosts, k)
    return 0


@jit
def want(st, p, c):
    if (st[9][R_MODE] & MODE_CARDS) == 0:  # card abilities off: the reference's WANT is empty
        return False
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
    f = faction_of(st, x)
    if f == 0:
        return aliens.talent_usable(st, p, x)
    elif f == 1:
        return dinosaurs.talent_usable(st, p, x)
    elif f == 2:
        return ninjas.talent_usable(st, p, x)
    elif f == 3:
        return pirates.talent_usable(st, p, x)
    elif f == 4:
        return robots.talent_usable(st, p, x)
    elif f == 5:
        return tricksters.talent_usable(st, p, x)
    elif f == 6:
        return wizards.talent_usable(st, p, x)
    elif f == 7:
        return zombies.talent_usable(st, p, x)
    return False


@jit
def talent_want(st, p, x):
    f = faction_of(st, x)
    if f == 0:
        return aliens.talent_want(st, p, x)
    elif f == 1:
        return dinosaurs.talent_want(st, p, x)
    elif f == 2:
        return ninjas.talent_want(st, p, x)
    elif f == 3:
        return pirates.talent_want(st, p, x)
    elif f == 4:
        return robots.talent_want(st, p, x)
    elif f == 5:
        return tricksters.talent_want(st, p, x)
    elif f == 6:
        return wizards.talent_want(st, p, x)
    elif f == 7:
        return zombies.talent_want(st, p, x)
    return False


@jit
def after_played(st, x, m):
    f = faction_of(st, x)
    if f == 0:
        aliens.after_played(st, x, m)
    elif f == 1:
        dinosaurs.after_played(st, x, m)
    elif f == 2:
        ninjas.after_played(st, x, m)
    elif f == 3:
        pirates.after_played(st, x, m)
    elif f == 4:
        robots.after_played(st, x, m)
    elif f == 5:
        tricksters.after_played(st, x, m)
    elif f == 6:
        wizards.after_played(st, x, m)
    elif f == 7:
        zombies.after_played(st, x, m)
    return


@jit
def start(st, p, x):
    f = faction_of(st, x)
    if f == 0:
        aliens.start(st, p, x)
    elif f == 1:
        dinosaurs.start(st, p, x)
    elif f == 2:
        ninjas.start(st, p, x)
    elif f == 3:
        pirates.start(st, p, x)
    elif f == 4:
        robots.start(st, p, x)
    elif f == 5:
        tricksters.start(st, p, x)
    elif f == 6:
        wizards.start(st, p, x)
    elif f == 7:
        zombies.start(st, p, x)
    return


@jit
def end(st, p, x):
    f = faction_of(st, x)
    if f == 0:
        aliens.end(st, p, x)
    elif f == 1:
        dinosaurs.end(st, p, x)
    elif f == 2:
        ninjas.end(st, p, x)
    elif f == 3:
        pirates.end(st, p, x)
    elif f == 4:
        robots.end(st, p, x)
    elif f == 5:
        tricksters.end(st, p, x)
    elif f == 6:
        wizards.end(st, p, x)
    elif f == 7:
        zombies.end(st, p, x)
    return


@jit
def special_want(st, f, q, s, code, a, b):
    """Special ``code`` of faction ``f``."""
    if f == 0:
        return aliens.special_want(st, q, s, code, a, b)
    elif f == 1:
        return dinosaurs.special_want(st, q, s, code, a, b)
    elif f == 2:
        return ninjas.special_want(st, q, s, code, a, b)
    elif f == 3:
        return pirates.special_want(st, q, s, code, a, b)
    elif f == 4:
        return robots.special_want(st, q, s, code, a, b)
    elif f == 5:
        return tricksters.special_want(st, q, s, code, a, b)
    elif f == 6:
        return wizards.special_want(st, q, s, code, a, b)
    elif f == 7:
        return zombies.special_want(st, q, s, code, a, b)
    return False


@jit
def after_special(st, q, s, m):
    f = faction_of(st, m)
    if f == 0:
        aliens.after_special(st, q, s, m)
    elif f == 1:
        dinosaurs.after_special(st, q, s, m)
    elif f == 2:
        ninjas.after_special(st, q, s, m)
    elif f == 3:
        pirates.after_special(st, q, s, m)
    elif f == 4:
        robots.after_special(st, q, s, m)
    elif f == 5:
        tricksters.after_special(st, q, s, m)
    elif f == 6:
        wizards.after_special(st, q, s, m)
    elif f == 7:
        zombies.after_special(st, q, s, m)
    return


@jit
def extra_want(st, p, i):
    """Move ``opt[i]`` added by a faction's ``extra_moves``: the card in play that offers it
    (``opt[i, 2]``, e.g. They're Coming To Get You; ``opt[i, 1]`` is the minion card to play,
    of any faction) decides the faction."""
    f = faction_of(st, st[12][i, 2])
    if f == 0:
        return aliens.extra_want(st, p, i)
    elif f == 1:
        return dinosaurs.extra_want(st, p, i)
    elif f == 2:
        return ninjas.extra_want(st, p, i)
    elif f == 3:
        return pirates.extra_want(st, p, i)
    elif f == 4:
        return robots.extra_want(st, p, i)
    elif f == 5:
        return tricksters.extra_want(st, p, i)
    elif f == 6:
        return wizards.extra_want(st, p, i)
    elif f == 7:
        return zombies.extra_want(st, p, i)
    return False


@jit
def faction_of(st, c):
    cs, defs = st[0], st[7]
    return defs[cs[c, C_DEF], D_FACTION]


@jit
def specials(st, q, s, n):
    """Every faction's before-scoring Specials, in faction order (the reference's BEFORE order)."""
    n = aliens.specials(st, q, s, n)
    n = dinosaurs.specials(st, q, s, n)
    n = ninjas.specials(st, q, s, n)
    n = pirates.specials(st, q, s, n)
    n = robots.specials(st, q, s, n)
    n = tricksters.specials(st, q, s, n)
    n = wizards.specials(st, q, s, n)
    return zombies.specials(st, q, s, n)


@jit
def extra_moves(st, p, n):
    n = aliens.extra_moves(st, p, n)
    n = dinosaurs.extra_moves(st, p, n)
    n = ninjas.extra_moves(st, p, n)
    n = pirates.extra_moves(st, p, n)
    n = robots.extra_moves(st, p, n)
    n = tricksters.extra_moves(st, p, n)
    n = wizards.extra_moves(st, p, n)
    return zombies.extra_moves(st, p, n)
