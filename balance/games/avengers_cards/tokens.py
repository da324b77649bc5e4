"""Token scoring and the rulebook's auto-choices, shared by the kernel and the strategies.

Tokens are triples in colour order Y, R, B: a tuple ``(y, r, b)`` or an ``int64[3]`` row. The
kernel passes tuples of scalars: inlined helpers that took ``tokens[p]`` made an array view per
call, and each view costs an atomic reference-count increment and decrement.
"""
from balance.core._jit import jit_inline

from .rules import LossRule

_EMPTY = 1 << 40  # centre_pick's key offset for an empty colour: above 4 x any token count


@jit_inline
def score3(y, r, b, set_bonus):
    """1 VP per token + ``set_bonus`` VP per Y-R-B set."""
    return y + r + b + set_bonus * min(y, min(r, b))


@jit_inline
def score(t, set_bonus):
    return score3(t[0], t[1], t[2], set_bonus)


@jit_inline
def centre_pick(t, centre, set_bonus):
    """Colour a player takes from the centre: the highest score after taking it;
    ties -> the colour it holds fewest of; ties -> Y, R, B. Needs a non-empty centre.

    Computed as: the available colour it holds fewest of, ties -> Y, R, B. The same choice,
    because taking colour c scores 1 + set_bonus x (1 if t[c] is below both other colours,
    else 0), set_bonus >= 0; so a colour scoring more than another also holds fewer. This
    form has no score arithmetic (it runs once per centre token).

    Branch-free (the colours' counts are random in simulations): each available colour gets
    the key 4 x held + colour (held >= 0, so the smallest key is the fewest held, ties -> the
    lowest colour), an empty one a key above any held count; the smallest key wins.
    """
    k0 = t[0] * 4 + (centre[0] <= 0) * _EMPTY
    k1 = t[1] * 4 + 1 + (centre[1] <= 0) * _EMPTY
    k2 = t[2] * 4 + 2 + (centre[2] <= 0) * _EMPTY
    return min(k0, min(k1, k2)) & 3


@jit_inline
def loss_colour(t, loss_rule, set_bonus):
    """Colour a defeated lowest player loses under ``majority``/``one``: among the colours it
    holds most of, the one that leaves the highest score; ties -> Y, R, B. -1 if it holds none.

    Computed as: the first colour (Y, R, B) it holds most of. The same choice, because every
    candidate holds the same count, so losing from any of them leaves the same three counts in
    another order, and the score is symmetric in the colours: the candidates always tie.
    Branch-free (it runs for every seat of every defeat). ``loss_rule`` and ``set_bonus`` do
    not change the choice; they stay for the rule's statement.
    """
    most = max(t[0], max(t[1], t[2]))
    if most == 0:
        return -1
    return 0 if t[0] == most else (1 if t[1] == most else 2)


@jit_inline
def tokens_lost(t, loss_rule, set_bonus):
    """Tokens ``(Y, R, B)`` a defeated lowest player holding ``t`` loses under ``loss_rule``."""
    if loss_rule == LossRule.ALL:
        return t[0], t[1], t[2]
    if loss_rule == LossRule.MAJORITY or loss_rule == LossRule.ONE:
        # loss_colour without its -1 case: holding nothing, n is 0 and nothing is lost.
        most = max(t[0], max(t[1], t[2]))
        n = most if loss_rule == LossRule.MAJORITY else min(most, 1)
        y = t[0] == most
        r = (t[1] == most) & (not y)
        b = (not y) & (not r)
        return n * y, n * r, n * b
    return 0, 0, 0
