"""Robots in the kernel: no card's effect is code any more (Hoverbot, Zapbot, Microbot Fixer's
on-play, Microbot Guard, Microbot Reclaimer and Tech Center are programs in
data/effects/robots.toml, run by ``kernel.effects``). Nukebot's trigger and Microbot Archive's
draws are in ``triggers``; Warbot, Alpha and Fixer's power in ``board``."""
from balance.core._jit import jit_widened as jit

from ..layout import DONE


@jit
def card_step(st, d, hook, step):
    """Every Robots card with an effect is data now; kept so that the dispatch stays uniform."""
    return DONE


@jit
def want(st, p, c):
    return False
