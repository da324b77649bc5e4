"""A chunk of games: each game's streams and sides, the game, its result (``engine.Engine``)."""
import numpy as np

from balance.core._jit import jit_novec as jit, stack_zeros
from balance.core.game import WIN_UNIT
from balance.core.kit import SIDE_STREAM, draw_distinct, game_key, game_stream_key, seed_key
from balance.core.rng import below

from .layout import unpack
from .. import CAPPED_CODE, FINISHED  # the outcome codes the game declares
from .board import R_PLAYERS
from .layout import (
    CT_IN_DECK, CT_IN_DECK_WON, CT_PLAYED, CT_PLAYED_WON, O_BASE, O_PLAYED, O_TURNS, O_VP, O_WINNER, RANDOM,
)
from .turn import play_game

DRAWN, DRAFT = -1, -2  # given[0] when no side is given: factions drawn, or a snake draft


@jit
def snake_draft(strat, rates, side_state, n, taken, picks):
    """The snake draft (rules/smash-up.md, Setup): seats pick one faction each in turn order,
    then one more each in reverse order. A ``random`` seat picks uniformly among the factions
    left (slot 0 of ``side_state``, the game's side stream); any other seat takes the one with
    the best rate (``rates`` float64[8, 8]: the diagonal a faction's, the rest a pair's), its
    first pick by the faction's rate and its second by the pair's with its first; ties go to
    catalogue order. picks int64[2P]: seat p's factions at 2p (first pick), 2p + 1; taken
    bool[8] is scratch."""
    taken[:] = False
    for r in range(2):
        for k in range(n):
            p = k if r == 0 else n - 1 - k
            choice = -1
            if strat[p] == RANDOM:
                j = below(side_state, 0, 8 - r * n - k)
                for f in range(8):
                    if not taken[f]:
                        if j == 0:
                            choice = f
                            break
                        j -= 1
            else:
                best = -1.0
                for f in range(8):
                    score = rates[f, f] if r == 0 else rates[picks[2 * p], f]
                    if not taken[f] and score > best:
                        best, choice = score, f
            taken[choice] = True
            picks[2 * p + r] = choice


@jit
def play_games(st, faction_decks, pairs, pair_of, given, rates, seed, games, removed,
               win_units, scores, outcome, length, sides, base_totals, card_totals):
    """Play the games numbered ``games`` int64[n] of the run with ``seed``.

    faction_decks int64[8, 20]: each faction's cards as definition rows; pairs int64[28, 2]:
    the factions of each side (catalogue order, first < second); pair_of int64[8, 8]: the side
    of two factions; given int64[P]: each seat's side, or all DRAWN (-1): every game draws 2P
    distinct factions from its side stream (seat p takes draws 2p and 2p + 1), so sides never
    depend on the strategies, or all DRAFT (-2): the seats draft them (``snake_draft`` with
    ``rates`` float64[8, 8], random seats drawing from the side stream). removed: a card
    definition row taken out of the deck of the seat whose pair holds it (every copy; card
    strength), or -1 for none. Outputs, row per game: win_units
    int32[n, P], scores int32[n, P] (VP), outcome int8[n], length int32[n] (turns), sides
    int16[n, P]; base_totals int64[16 * BST_N] (``turn``'s per-base counters) and card_totals
    int64[MAX_DEFS, CT_N] (layout: each card's seat-games in deck and played) are added to.
    """
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = rs[R_PLAYERS]
    seed_k = seed_key(seed)
    deck_defs = np.empty((n, 40), np.int64)
    side_state = np.empty(1, np.uint64)
    pool = np.empty(8, np.int64)
    drawn = np.empty(8, np.int64)
    taken = np.empty(8, np.bool_)
    for i in range(games.shape[0]):
        gk = game_key(seed_k, np.uint64(games[i]))
        for s in range(1 + n):
            states[s] = game_stream_key(gk, s)
        if given[0] < 0:
            side_state[0] = game_stream_key(gk, SIDE_STREAM)
            if given[0] == DRAFT:
                snake_draft(strat, rates, side_state, n, taken, drawn)
            else:
                draw_distinct(side_state, 0, 8, 2 * n, pool, drawn)
            for p in range(n):
                a, b = drawn[2 * p], drawn[2 * p + 1]
                sides[i, p] = pair_of[min(a, b), max(a, b)]
        else:
            for p in range(n):
                sides[i, p] = given[p]
        for p in range(n):
            deck_defs[p, :20] = faction_decks[pairs[sides[i, p], 0]]
            deck_defs[p, 20:] = faction_decks[pairs[sides[i, p], 1]]
            for k in range(40):
                if deck_defs[p, k] == removed:
                    deck_defs[p, k] = -1 - removed  # setup shuffles it in, then takes it out
        play_game(st, deck_defs)
        w = stats[O_WINNER]
        for p in range(n):
            win_units[i, p] = WIN_UNIT if p == w else 0
            scores[i, p] = stats[O_VP + p]
        outcome[i] = FINISHED if w >= 0 else CAPPED_CODE
        length[i] = stats[O_TURNS]
        base_totals += stats[O_BASE:O_PLAYED]
        for p in range(n):
            count_cards(defs, deck_defs[p], stats[O_PLAYED + 2 * p:O_PLAYED + 2 * p + 2],
                        1 if p == w else 0, card_totals)


@jit
def count_cards(defs, deck, played, won, card_totals):
    """Adds one seat-game to ``card_totals``: each definition row its ``deck`` int64[40] holds
    (once, however many copies; a removed card, ``-1 - d``, is not held) counts in deck, and
    also played if its bit is set in ``played`` int64[2] (a card another seat's deck holds,
    played by this seat through Mass Enchantment, is not counted); ``won``: 1 if the seat won."""
    held = stack_zeros(2)
    for k in range(deck.shape[0]):
        d = deck[k]
        if d >= 0:
            held[d >> 6] |= 1 << (d & 63)
    for d in range(defs.shape[0]):
        if (held[d >> 6] >> (d & 63)) & 1:
            card_totals[d, CT_IN_DECK] += 1
            card_totals[d, CT_IN_DECK_WON] += won
            if (played[d >> 6] >> (d & 63)) & 1:
                card_totals[d, CT_PLAYED] += 1
                card_totals[d, CT_PLAYED_WON] += won
