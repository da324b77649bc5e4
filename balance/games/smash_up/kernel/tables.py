"""The card and base data the kernel reads, built from the catalogue (Python side).

``defs int64[ndefs, D_N]``: one row per distinct card of the selected card list (catalogue
order, faction by faction), with the start rows of its effect programs (``D_PROG + hook``, -1:
none) and of its want (``D_WANT``) in ``prog int64[n, I_N]`` (``opcodes``; the state's
``st.pg``, built by ``smash_up.effects`` from data/effects/); ``decks``: per faction, its 20
cards as definition rows (one per copy, catalogue order — the reference builds a deck the same
way); ``bases int64[16, BS_N]``: name, breakpoint, VP by place, then the base's data.
"""
from __future__ import annotations

import numpy as np

from ..catalogue import FACTIONS
from .layout import K_ACTION, K_DUAL, K_MINION, N_HOOKS, pow2
from .names import BASE_NAMES, card_code

D_NAME, D_KIND, D_POWER, D_FACTION, D_PLAYON, D_TRIGGERS = range(6)
D_PROG = 6  # + hook (layout.H_ON_PLAY .. H_AFTER_DISCARDED): the hook's program start row, -1: none
D_WANT = D_PROG + N_HOOKS  # its want's start row, -1: the faction module decides
# static abilities (data/effects ``static``; opcodes FL_ and PROT_): the power an attached action
# gives its host, the power per minion of its own name on its base, flags, protection bits; and
# a play-on action's host rule (data/effects ``host``; opcodes HOST_, 0: the faction module's)
D_HOST_POWER, D_PER_NAME, D_FLAGS, D_PROTECT = D_WANT + 1, D_WANT + 2, D_WANT + 3, D_WANT + 4
D_HOST = D_PROTECT + 1
# its before-scoring Special's window (data/effects ``window``; opcodes WINDOW_ bits, 0: none or
# the faction module's)
D_WINDOW = D_HOST + 1
D_USABLE = D_WINDOW + 1  # its talent's usable test (data/effects ``usable``: OP_IF rows; -1: the faction module's)
D_COLS = D_USABLE + 1  # a definition row's columns; the state's rows are padded to D_N
D_N = pow2(D_COLS)
BS_NAME, BS_BREAK, BS_VP0, BS_VP1, BS_VP2 = range(5)
# a base's data (data/effects/bases.toml): its program start row per hook (-1: none), the power
# every minion on it has beyond its own (static MINION_POWER: The Central Brain), and the VP it
# gives when it scores beyond its places' (opcodes.VP_*, with its number)
BS_PROG = 5
BS_MINION_POWER = BS_PROG + N_HOOKS
BS_VP_RULE, BS_VP_ARG = BS_MINION_POWER + 1, BS_MINION_POWER + 2
BS_COLS = BS_VP_ARG + 1  # a base row's columns; the state's rows are padded to BS_N
BS_N = pow2(BS_COLS)
PLAYON_NONE, PLAYON_BASE, PLAYON_MINION, PLAYON_OWN = range(4)
# rules/smash-up-cards.md §1.1: "Play on a base / on a minion / on one of your minions"
PLAY_ON = {
    "Jammed Signal": PLAYON_BASE, "Wildlife Preserve": PLAYON_BASE, "Infiltrate": PLAYON_BASE,
    "Block the Path": PLAYON_BASE, "Enshrouding Mist": PLAYON_BASE, "Flame Trap": PLAYON_BASE,
    "Hideout": PLAYON_BASE, "Pay the Piper": PLAYON_BASE, "Overrun": PLAYON_BASE,
    "They're Coming To Get You": PLAYON_BASE,
    "Tooth and Claw...and Guns": PLAYON_MINION, "Upgrade": PLAYON_MINION, "Assassin": PLAYON_MINION,
    "Poison": PLAYON_MINION, "Smoke Bomb": PLAYON_OWN,
}
# D_TRIGGERS bits: the card has a talent, reacts to a minion being played, acts at the start or
# at the end of a turn. The kernel asks only such cards (most have none of these), and sorts
# only them into the §1.7 order, instead of calling every card in play's hook. TR_SPENT: its
# reaction to a minion played uses the card up, so it comes after its controller's others.
# TR_HERE: it reacts to a minion another player plays on its own base (its controller orders
# such reactions: ``vm.next_reaction``).
TR_TALENT, TR_AFTER_PLAYED, TR_START, TR_END, TR_SPENT, TR_HERE = 1, 2, 4, 8, 16, 32
_KIND = {"minion": K_MINION, "action": K_ACTION, "dual": K_DUAL}


def _triggers() -> dict[str, int]:
    """Card name -> its D_TRIGGERS bits, read from the reference's ability tables (the
    plain-Python statement of every ability), so the two engines cannot disagree on which cards
    have which trigger: a card the kernel skipped while the reference ran it would show as a
    difference in the kernel = reference tests."""
    from ..reference import abilities as ab  # importing the reference package fills its tables

    bits: dict[str, int] = {}
    for table, bit in ((ab.TALENT, TR_TALENT), (ab.AFTER_PLAYED, TR_AFTER_PLAYED),
                       (ab.START, TR_START), (ab.END, TR_END)):
        for name in table:
            bits[name] = bits.get(name, 0) | bit
    for name in ab.SPENT_AFTER_PLAYED & set(ab.AFTER_PLAYED):  # spent by an after-played trigger it has
        bits[name] |= TR_SPENT
    for name in ab.HERE_AFTER_PLAYED & set(ab.AFTER_PLAYED):
        bits[name] |= TR_HERE
    return bits


def card_tables(cat, switches=()):
    """(defs, decks, bases, prog) for a card list (``catalogue.Catalogue``, e.g.
    ``rules.catalogue()``) under the rules switches that are on (``switches``, names from
    ``rules.SWITCHES``: a switch may change a card's program): see the module docstring."""
    from ..effects import assemble

    prog, starts, wants, usables, statics, base_data = assemble(cat, switches)
    rows, decks = [], {}
    triggers = _triggers()
    for f, faction in enumerate(FACTIONS):
        decks[faction] = []
        for spec in cat.factions[faction]:
            d = len(rows)
            rows.append((card_code(spec.name), _KIND[spec.kind], spec.power or 0, f,
                         PLAY_ON.get(spec.name, PLAYON_NONE), triggers.get(spec.name, 0),
                         *starts[d], wants[d], *statics[d], usables[d]))
            decks[faction] += [d] * spec.copies
    bases = np.array([(BASE_NAMES.index(b.name), b.breakpoint, *b.vp, *base_data[i])
                      for i, b in enumerate(cat.bases)], np.int64)
    return np.array(rows, np.int64), decks, bases, prog
