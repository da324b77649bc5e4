"""The simulation kernel: plays chunks of games with numba, arrays in, arrays out.

Rules arrays come from ``Rules.to_kernel()``; strategies are ``sids int64[P]`` and
``prm float64[P, MAX_PARAMS]``. Inputs are validated before they get here.
"""
from typing import NamedTuple

import numpy as np

from balance.core._jit import drop_stale_cache, jit, jit_inline, jit_nonrt
from balance.core.rng import below, game_key, game_stream_key, seed_key

from .outcomes import WIN_UNIT, CardStat, SeatStat, VillainStat
from .rules import MAX_CARD, Cfg, LossRule, LostTokensTo, Restrict, RewardOrder
from .strategies import StrategyId, choose_card
from .tokens import centre_pick, score3, tokens_lost

drop_stale_cache(__file__)


# Per-value counts packed in 4-bit fields of an int64 (field v counts card value v <= MAX_CARD;
# at most MAX_PLAYERS = 5 per field, so fields never carry and the top bit stays clear).
# Multiplying by _NIBBLE_ONES turns the counts into prefix sums: field v = count of values <= v.
_NIBBLE_ONES = 0x1111111111111111


@jit_inline
def _fight_rules(cfg, rulebook):
    """The rules resolve_fight branches on: (ties cancel, rewards go lowest card first, the
    LossRule, lost tokens go to the centre). rulebook: these are the rulebook's (checked by
    play_games); a compile-time True in the loops built for them, where the values fold to
    constants and their branches vanish (measured: +2% for random, 4 players)."""
    if rulebook:
        return True, True, np.int64(LossRule.MAJORITY), True
    return (cfg[Cfg.TIES_CANCEL] == 1, cfg[Cfg.REWARD_ORDER] == RewardOrder.LOWEST_FIRST,
            cfg[Cfg.LOSS_RULE], cfg[Cfg.LOST_TOKENS_TO] == LostTokensTo.CENTRE)


def is_rulebook(cfg, hand) -> bool:
    """Whether cfg and hand (Rules.to_kernel()) have what the rulebook loops assume: the rules
    _fight_rules(cfg, True) assumes and card values the tally table covers (<= TABLE_MAX_CARD)."""
    return bool(cfg[Cfg.TIES_CANCEL] == 1 and cfg[Cfg.REWARD_ORDER] == RewardOrder.LOWEST_FIRST
                and cfg[Cfg.LOSS_RULE] == LossRule.MAJORITY
                and cfg[Cfg.LOST_TOKENS_TO] == LostTokensTo.CENTRE
                and max(hand) <= TABLE_MAX_CARD)


# A fight's tally (_tally) packed in an int64, for the rulebook loops' table: the counted total,
# the number m of counted cards, the seats whose card was cancelled and those that showed the
# lowest card (bitmasks), and the counted seats in reward order, 3 bits each.
_T_TOTAL, _T_M, _T_CANCELLED, _T_LOWEST, _T_ORDER = 0, 8, 12, 20, 28
TABLE_MAX_CARD = 7  # the table is keyed by every seat's card in 3 bits: 8 ** players entries


@jit_inline
def _tally(players, plays, first, ties_cancel, lowest_first, order):
    """What decides a fight, from the cards shown (plays int64[P]): returns (total of the counted
    cards, m = how many count, cancelled seats, seats showing the lowest card), the two sets as
    bitmasks of seats, and writes the counted seats in reward order to order[:m] (order
    int64[P + 1]: seats that do not count go to the spare slot order[P]).
    """
    # Card values shown by two or more seats, as a bitmask: one pass instead of P x P compares.
    seen = 0
    dup = 0
    low = 1 << 30
    for p in range(players):
        bit = 1 << plays[p]
        dup |= seen & bit
        seen |= bit
        low = min(low, plays[p])
    if not ties_cancel:
        dup = 0
    total = 0
    m = 0
    cancelled = 0
    lowest = 0
    counts = 0  # counted cards per value, in 4-bit fields
    for p in range(players):
        card = plays[p]
        counts_here = 1 - ((dup >> card) & 1)
        cancelled |= (1 - counts_here) << p
        lowest |= np.int64(card == low) << p
        total += card * counts_here
        m += counts_here
        counts += counts_here << (4 * card)
    # Reward order by counting instead of sorting: a counted seat's place is the number of
    # counted cards ranked before its value (prefix sums of the per-value counts) plus the
    # counted seats with its value met earlier clockwise (equal cards go clockwise when ties
    # do not cancel). O(P) without data-dependent branches.
    at_most = counts * _NIBBLE_ONES
    same_before = 0  # counted cards per value met so far, clockwise from `first`
    p = first
    for k in range(players):
        shift = 4 * plays[p]  # card values are >= 1, so shift >= 4
        if lowest_first:
            before = (at_most >> (shift - 4)) & 15  # counted cards lower than ours
        else:
            before = m - ((at_most >> shift) & 15)  # counted cards higher than ours
        place = before + ((same_before >> shift) & 15)
        counts_here = 1 - ((dup >> plays[p]) & 1)
        same_before += counts_here << shift
        order[place if counts_here == 1 else players] = p
        p = p + 1 if p + 1 < players else 0  # clockwise; no modulo (an integer division)
    return total, m, cancelled, lowest


@jit
def _build_tally_table(players):
    """int64[8 ** players]: the packed rulebook tally (ties cancel, lowest card first) of
    every fight whose cards are <= TABLE_MAX_CARD, keyed by tally_key. With ties cancelling,
    counted cards differ, so the reward order does not depend on the first player."""
    table = np.zeros(8 ** players, np.int64)
    plays = np.zeros(players, np.int64)
    order = np.zeros(players + 1, np.int64)
    for key in range(table.shape[0]):
        for p in range(players):
            plays[p] = max(1, (key >> (3 * p)) & 7)  # card values are >= 1; 0 keys go unused
        total, m, cancelled, lowest = _tally(players, plays, 0, True, True, order)
        packed = ((total << _T_TOTAL) | (m << _T_M) | (cancelled << _T_CANCELLED)
                  | (lowest << _T_LOWEST))
        for k in range(m):
            packed |= order[k] << (_T_ORDER + 3 * k)
        table[key] = packed
    return table


_TALLY_TABLES = {}


def tally_table(players: int) -> np.ndarray:
    """The rulebook loops' tally table for this player count (built once per process)."""
    if players not in _TALLY_TABLES:
        _TALLY_TABLES[players] = _build_tally_table(players)
    return _TALLY_TABLES[players]


@jit_inline
def tally_key(players, plays):
    """A fight's index in the tally table: every seat's card in 3 bits (cards <= 7)."""
    key = 0
    for p in range(players):
        key |= plays[p] << (3 * p)
    return key


@jit_inline
def resolve_fight(players, cfg, first, villain, plays, tokens, reserve, centre, strength, rewards,
                  n_places, record, order, rulebook, tally):
    """Resolve one villain after every seat revealed ``plays[p]``; returns True if beaten.

    players == cfg[Cfg.PLAYERS] (a compile-time constant in the fixed-player game loops);
    rulebook: see _fight_rules (False reads every rule from cfg); True also takes the fight's
    tally from ``tally`` (its tally_table entry) instead of computing it.
    Updates tokens int64[P, 3], reserve and centre int64[3] in place and writes each seat's
    play record in record int64[P] (fields _REC_*: whether its card was cancelled, was a
    lowest card of a defeat, tokens gained and lost). order int64[P + 1] is scratch.
    """
    bonus = cfg[Cfg.SET_BONUS]
    ties_cancel, lowest_first, loss_rule, to_centre = _fight_rules(cfg, rulebook)
    if rulebook:
        total = (tally >> _T_TOTAL) & 255
        m = (tally >> _T_M) & 15
        cancelled = (tally >> _T_CANCELLED) & 255
        lowest = (tally >> _T_LOWEST) & 255
        for k in range(players):  # places past m read 0: harmless, only order[:m] is used
            order[k] = (tally >> (_T_ORDER + 3 * k)) & 7
    else:
        total, m, cancelled, lowest = _tally(players, plays, first, ties_cancel, lowest_first,
                                             order)
    for p in range(players):
        record[p] = ((cancelled >> p) & 1) << _REC_CANCELLED

    if total >= strength[villain]:
        # Reserve and centre counts live in registers while tokens move (no store-to-load
        # round trips through the arrays on every token).
        r0, r1, r2 = reserve[0], reserve[1], reserve[2]
        for k in range(min(m, n_places[villain])):
            p = order[k]
            g0 = min(rewards[villain, k, 0], r0)
            g1 = min(rewards[villain, k, 1], r1)
            g2 = min(rewards[villain, k, 2], r2)
            tokens[p, 0] += g0
            tokens[p, 1] += g1
            tokens[p, 2] += g2
            r0 -= g0
            r1 -= g1
            r2 -= g2
            record[p] += (g0 + g1 + g2) << _REC_GAINED
        reserve[0], reserve[1], reserve[2] = r0, r1, r2
        _share_centre(tokens, centre, order, m, record, bonus)
        return True

    # Defeat: every seat that showed the lowest card loses tokens. Computed for every seat and
    # multiplied by whether it was lowest: a branch per seat on random cards mispredicts. Seats
    # are independent and the pools only add up, so the seat order does not matter.
    taken0 = 0
    taken1 = 0
    taken2 = 0
    for p in range(players):
        hit = (lowest >> p) & 1
        x0, x1, x2 = tokens_lost((tokens[p, 0], tokens[p, 1], tokens[p, 2]), loss_rule, bonus)
        x0 *= hit
        x1 *= hit
        x2 *= hit
        tokens[p, 0] -= x0
        tokens[p, 1] -= x1
        tokens[p, 2] -= x2
        record[p] += (hit << _REC_LOWEST) + ((x0 + x1 + x2) << _REC_LOST)
        taken0 += x0
        taken1 += x1
        taken2 += x2
    pool = centre if to_centre else reserve
    pool[0] += taken0
    pool[1] += taken1
    pool[2] += taken2
    return False


@jit_inline
def _share_centre(tokens, centre, order, m, record, bonus):
    """The counted seats take the centre's tokens one at a time, round-robin in reward order
    (``order[:m]``, m >= 1), each by the auto-choice (tokens.centre_pick); empties the centre
    and adds the tokens to the seats' play records.

    Seat k of the order takes n // m of the n tokens, one more if k < n % m. When one seat
    takes them all, or only one colour lies there (most defeats leave one colour), no choice
    depends on the others' picks, so the tokens are handed out at once.
    """
    c0, c1, c2 = centre[0], centre[1], centre[2]
    n = c0 + c1 + c2
    if n == 0:
        return
    centre[0] = 0
    centre[1] = 0
    centre[2] = 0
    if m == 1:
        p = order[0]
        tokens[p, 0] += c0
        tokens[p, 1] += c1
        tokens[p, 2] += c2
        record[p] += n << _REC_GAINED
        return
    each = n // m
    extra = n - each * m
    if (c0 == n) | (c1 == n) | (c2 == n):
        for k in range(min(m, n)):
            p = order[k]
            take = each + (k < extra)
            tokens[p, 0] += take * (c0 == n)
            tokens[p, 1] += take * (c1 == n)
            tokens[p, 2] += take * (c2 == n)
            record[p] += take << _REC_GAINED
        return
    for k in range(min(m, n)):
        record[order[k]] += (each + (k < extra)) << _REC_GAINED
    i = 0
    for _ in range(n):
        p = order[i]
        c = centre_pick((tokens[p, 0], tokens[p, 1], tokens[p, 2]), (c0, c1, c2), bonus)
        tokens[p, c] += 1
        c0 -= c == 0
        c1 -= c == 1
        c2 -= c == 2
        i = i + 1 if i + 1 < m else 0


def play_games(cfg, hand, strength, rewards, n_places, decks, start, sids, prm, restrict, seed,
               first_game, n_games, out_scores, out_tokens, out_win_units, out_beaten,
               seat_stats, score_hist, card_stats, villain_stats, pair_stats, scratch):
    """Play games ``first_game .. first_game + n_games - 1`` of a run with ``seed``.

    Per game g (row g of the outputs): out_scores int32[n, P], out_tokens int32[n, P, 3]
    (final Y, R, B), out_win_units int32[n, P] (win share x WIN_UNIT), out_beaten int32[n]
    (villains beaten). Adds into the accumulators seat_stats int64[P, len(SeatStat)],
    score_hist int64[P, max_score + 1], card_stats int64[P, MAX_CARD + 1, len(CardStat)],
    villain_stats int64[NV, len(VillainStat)], pair_stats int64[P, P] (games in which seat a
    scored more than seat b). start int64[P, 3]: tokens each seat starts with.
    restrict int64[P, 2]: per seat, a bitmask of card values it may not play and when
    (Restrict: NEVER, ALWAYS, or BEFORE_LAST while villains of the battle remain after this
    one); the seat then chooses as if those cards were not in its hand (restricted play).
    scratch int64[strategies.scratch_size(T)].
    Picks the compiled game loop for the line-up and player count; each compiles (or loads
    from the cache) on first use only, so a run compiles just the loop it plays.
    """
    players = int(cfg[Cfg.PLAYERS])
    work = (np.zeros(players + 1, np.uint64),
            np.zeros((_SEAT_ROWS, players + 1), np.int64),
            np.zeros((players, 3), np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64),
            np.zeros(int(cfg[Cfg.DECK_PER_BATTLE]), np.int64),
            np.zeros((players, MAX_CARD + 1), np.int64),
            np.zeros(villain_stats.shape[0], np.int64),
            np.zeros((int(cfg[Cfg.VILLAINS_PER_BATTLE]), players + 1), np.int64),
            np.zeros((2, 2, players, players + 1), np.int64), np.zeros(players, np.int64),
            np.zeros(score_hist.shape, np.int64))
    greedy = bool((sids == StrategyId.GREEDY).any())
    general = _GENERAL_LOOPS[greedy]
    rulebook = is_rulebook(cfg, hand)
    loop = general if _any_restricted(restrict) else _FIXED_LOOPS.get((greedy, players, rulebook),
                                                                       general)
    # Only the rulebook loops read the tally table (unused elsewhere: a 1-entry stand-in).
    table = tally_table(players) if loop.rulebook else np.zeros(1, np.int64)
    loop.run(cfg, hand, strength, rewards, n_places, decks, start, sids, prm, restrict,
             np.uint64(seed), first_game, n_games, out_scores, out_tokens, out_win_units,
             out_beaten, seat_stats, score_hist, card_stats, villain_stats, pair_stats, scratch,
             work + (table,))


@jit_inline
def _any_restricted(restrict):
    """Whether some seat has banned cards (restrict int64[P, 2], see play_games): picks the
    loop in play_games and, inside a general loop, whether to look restrictions up at all."""
    for p in range(restrict.shape[0]):
        if restrict[p, 0] != 0 and restrict[p, 1] != Restrict.NEVER:
            return True
    return False


@jit_inline
def _banned(restrict, p, remaining_after):
    """Bitmask of the card values seat p may not play now."""
    when = restrict[p, 1]
    applies = (when == Restrict.ALWAYS) | ((when == Restrict.BEFORE_LAST) & (remaining_after > 0))
    return restrict[p, 0] if applies else 0


@jit_inline
def _hide(hand_mask, p, cards, sign):
    """Take the cards (a bitmask) out of seat p's hand (sign -1) or put them back (+1)."""
    if sign < 0:
        hand_mask[p] &= ~cards
    else:
        hand_mask[p] |= cards


@jit_inline
def batch_games(battles, tokens_per_colour):
    """Games whose packed counters (play records, _pack_fight, game_acc, pair_acc) fit their
    fields.

    Per game, a seat plays a card value at most once per battle (hand values are distinct), a
    villain is fought at most once, and one play or fight moves at most all 3 x
    tokens_per_colour tokens; game_acc and pair_acc count at most one per game. Count fields
    have 8 bits, token fields 16.
    """
    return max(1, min(255 // battles, 65535 // (battles * 3 * max(1, tokens_per_colour))))


# A play record: one seat's play of one fight as bit fields of an int64, in the layout of
# card_acc, which sums them per seat and card over a batch of games (batch_games): plays,
# cancelled, rewarded, lowest-on-defeat in 8 bits each, tokens gained and lost in 16 (the
# shifts below). resolve_fight fills CANCELLED, LOWEST, GAINED and LOST; the game loop adds
# PLAYS and REWARDED. No field carries (see batch_games); the top field may set the sign bit,
# so fields are read back with a shift and a mask (_flush_counts).
_REC_PLAYS, _REC_CANCELLED, _REC_REWARDED, _REC_LOWEST = 0, 8, 16, 24
_REC_GAINED, _REC_LOST = 32, 48


# Per-game counters by outcome: a seat's game is counted under its outcome class r (0: not a
# winner, k: one of k winners, whose win share and squared share follow from k) in
# game_acc int64[2, 2, P, P + 1]: [0] the cards the seat played in the game, [1] those that
# gained it tokens, [.., 0] values 0-7 and [.., 1] values 8-15, as 8 fields of 8 bits, one
# per value: a card mask byte spread to fields (_SPREAD8) adds one to each card it holds in one
# add, instead of one add per card. Value 0 is never a card: game_acc[0, 0]'s field 0 counts
# the games themselves, from which the seat counters follow (_flush_games).
_SPREAD8 = np.array([sum(1 << (8 * i) for i in range(8) if b >> i & 1) for b in range(256)],
                    np.int64)


@jit_inline
def _pack_fight(beaten, reward_tokens, centre_tokens, taken):
    """One fight's villain counters: fought, beaten in 8 bits, place-reward tokens, centre
    tokens and tokens lost in 16 each (a villain is fought at most once per game)."""
    return 1 + (beaten << 8) + (reward_tokens << 16) + (centre_tokens << 32) + (taken << 48)


@jit_inline
def _flush_counts(players, hand, card_acc, card_stats, villain_acc, villain_stats):
    """Add the packed batch play and fight counters into card_stats / villain_stats and zero
    them."""
    for p in range(players):
        for i in range(hand.shape[0]):
            v = hand[i]
            x = card_acc[p, v]
            card_acc[p, v] = 0
            card_stats[p, v, CardStat.PLAYED] += (x >> _REC_PLAYS) & 255
            card_stats[p, v, CardStat.CANCELLED] += (x >> _REC_CANCELLED) & 255
            card_stats[p, v, CardStat.REWARDED] += (x >> _REC_REWARDED) & 255
            card_stats[p, v, CardStat.LOWEST_ON_DEFEAT] += (x >> _REC_LOWEST) & 255
            card_stats[p, v, CardStat.TOKENS_GAINED] += (x >> _REC_GAINED) & 0xFFFF
            card_stats[p, v, CardStat.TOKENS_LOST] += (x >> _REC_LOST) & 0xFFFF
    for v in range(villain_acc.shape[0]):
        x = villain_acc[v]
        villain_acc[v] = 0
        villain_stats[v, VillainStat.FOUGHT] += x & 255
        villain_stats[v, VillainStat.BEATEN] += (x >> 8) & 255
        villain_stats[v, VillainStat.REWARD_TOKENS] += (x >> 16) & 0xFFFF
        villain_stats[v, VillainStat.CENTRE_TOKENS] += (x >> 32) & 0xFFFF
        villain_stats[v, VillainStat.TOKENS_LOST] += (x >> 48) & 0xFFFF


@jit_inline
def _flush_games(players, game_acc, pair_acc, seat_stats, card_stats, pair_stats):
    """Add the batch's per-game counters (game_acc by outcome class, see _SPREAD8; pair_acc
    int64[P]: field q of seat p counts games in which p scored more than q) into seat_stats,
    card_stats and pair_stats, and zero them."""
    for p in range(players):
        for r in range(players + 1):
            units = WIN_UNIT // r if r > 0 else 0  # each game's win share, x WIN_UNIT
            for byte in range(2):
                x = game_acc[0, byte, p, r]
                y = game_acc[1, byte, p, r]
                game_acc[0, byte, p, r] = 0
                game_acc[1, byte, p, r] = 0
                for i in range(8):
                    v = 8 * byte + i
                    played = (x >> (8 * i)) & 255
                    rewarded = (y >> (8 * i)) & 255
                    if v == 0:  # not a card: the games
                        seat_stats[p, SeatStat.GAMES] += played
                        seat_stats[p, SeatStat.WIN_UNITS] += played * units
                        seat_stats[p, SeatStat.WIN_UNITS_SQ] += played * units * units
                        seat_stats[p, SeatStat.WINS_OUTRIGHT] += played * (r == 1)
                        seat_stats[p, SeatStat.WINS_SHARED] += played * (r > 1)
                    else:
                        card_stats[p, v, CardStat.GAMES_PLAYED] += played
                        card_stats[p, v, CardStat.GAMES_REWARDED] += rewarded
                        card_stats[p, v, CardStat.WIN_UNITS_PLAYED] += played * units
                        card_stats[p, v, CardStat.WIN_UNITS_REWARDED] += rewarded * units
        x = pair_acc[p]
        pair_acc[p] = 0
        for q in range(players):
            pair_stats[p, q] += (x >> (8 * q)) & 255


@jit_inline
def _fold_scores(players, score_acc, seat_stats, score_hist):
    """Add a chunk's score histogram (score_acc int64[P, max_score + 1]) into score_hist and
    the score sums it gives into seat_stats."""
    for p in range(players):
        for s in range(score_acc.shape[1]):
            n = score_acc[p, s]
            score_hist[p, s] += n
            seat_stats[p, SeatStat.SCORE_SUM] += n * s
            seat_stats[p, SeatStat.SCORE_SQ_SUM] += n * s * s


# Rows of the per-seat working array ``seat`` int64[_SEAT_ROWS, P + 1] of the game loops.
# A hand is a bitmask of card values (strategies.kth_card); its size is the popcount.
_HAND, _RECORD, _ORDER, _PLAYED, _REWARDED, _SCORE = range(6)
_SEAT_ROWS = 6


# The game loops, compiled without the NRT (no reference counting; they allocate nothing).
# Each is the loop _compiled_loop writes, with its line-up's constants: without greedy seats
# the loop is compiled without greedy's large inlined chooser, which otherwise costs every
# strategy registers and code layout (measured: ~5% for random and threshold); with the player
# count known at compile time, every loop over the seats is unrolled (measured: ~8% for random,
# 4 players; ~17% for greedy, whose sampling loops run over the seats). The fixed-player loops
# also leave out restricted play (restricted line-ups take a general loop): about 3% more for
# random. Those without greedy come in two: for the rulebook's rules and hands (see
# is_rulebook) and for any. (Greedy gains nothing from it.)

class _Loop(NamedTuple):
    run: object  # the compiled loop: play_games' arguments and its working arrays
    rulebook: bool  # whether it assumes is_rulebook (and reads the tally table)


def _compiled_loop(fixed_players: int, with_greedy: bool, may_restrict: bool, rulebook: bool) -> _Loop:
    """The game loop of play_games, compiled with these constants (fixed_players 0: any count,
    read from cfg; may_restrict False: no seat is restricted; rulebook: see _fight_rules).

    The constants are the closure's cells, which numba compiles in and keys its cache on; the
    distinct name gives each loop its own cache index file. The loop is written here, not
    inlined from a function of its own: numba's IR inliner deep-copies a callee block by block,
    each copy with the callee's whole scope, which cost about 20 s of each loop's cold compile
    (cProfile: inline_closurecall.copy_ir; 11 loops in all).

    work is a tuple of zeroed working arrays: states, seat, tokens, reserve, centre, deck,
    card_acc, villain_acc, plan, game_acc, pair_acc, score_acc, and the tally table (uint64[P + 1],
    int64[_SEAT_ROWS, P + 1], int64[P, 3], int64[3], int64[3], int64[deck_per_battle],
    int64[P, MAX_CARD + 1], int64[NV], int64[vpb, P + 1], int64[2, 2, P, P + 1], int64[P],
    int64[P, max_score + 1], and tally_table(P) in the rulebook loops); a tuple keeps calls under
    31 arguments, which Python would pass as *args.

    Without greedy seats no choice depends on the tokens, so each battle's cards are chosen
    before its fights (plan[t, :P] the cards of fight t, plan[t, P] its tally in the rulebook
    loops): those choices and tallies have no branches and overlap freely, and each fight's
    outcome is known as soon as its branch is reached, so a mispredicted outcome throws away
    little work (measured, random 4 players: +5% on top of the tally table's +5%). Every seat
    draws from its own stream in the same order either way, so the games are the same.

    Counters are packed per seat and card (card_acc: per play; game_acc: per game), per
    villain and per pair of seats, and added into the caller's arrays once per batch of
    batch_games() games: one add per play instead of six, two per game and seat instead of one
    per card, and no branch on the fight's outcome (measured, random 4 players: game_acc and
    pair_acc +9% over one add per card, seat counter and pair).
    """
    def loop(cfg, hand, strength, rewards, n_places, decks, start, sids, prm, restrict, seed,
             first_game, n_games, out_scores, out_tokens, out_win_units, out_beaten, seat_stats,
             score_hist, card_stats, villain_stats, pair_stats, scratch, work):
        players = fixed_players if fixed_players > 0 else cfg[Cfg.PLAYERS]
        (states, seat, tokens, reserve, centre, deck, card_acc, villain_acc, plan, game_acc,
         pair_acc, score_acc, table) = work
        h = cfg[Cfg.HAND_SIZE]
        battles = cfg[Cfg.BATTLES]
        vpb = cfg[Cfg.VILLAINS_PER_BATTLE]
        dpb = cfg[Cfg.DECK_PER_BATTLE]
        bonus = cfg[Cfg.SET_BONUS]
        per_colour = cfg[Cfg.TOKENS_PER_COLOUR]
        batch = batch_games(battles, per_colour)
        hand_mask = seat[_HAND]
        record = seat[_RECORD]
        order = seat[_ORDER]
        played_mask = seat[_PLAYED]
        rewarded_mask = seat[_REWARDED]
        scores = seat[_SCORE]
        seed_k = seed_key(seed)
        full_mask = 0
        for i in range(h):
            full_mask |= 1 << hand[i]

        restricted = may_restrict and _any_restricted(restrict)

        in_batch = 0
        for g in range(n_games):
            game_k = game_key(seed_k, first_game + g)
            for s in range(players + 1):
                states[s] = game_stream_key(game_k, s)
            for c in range(3):
                reserve[c] = per_colour
                centre[c] = 0
                for p in range(players):
                    tokens[p, c] = start[p, c]
                    reserve[c] -= start[p, c]
            for p in range(players):
                played_mask[p] = 0
                rewarded_mask[p] = 0
            beaten_count = 0

            first = 0  # the first-player card passes clockwise each battle
            for b in range(battles):
                for p in range(players):
                    hand_mask[p] = full_mask
                # Shuffle the battle's deck and fight its first vpb cards (partial Fisher-Yates).
                for i in range(dpb):
                    deck[i] = decks[b, i]
                for i in range(vpb):
                    j = i + below(states, 0, dpb - i)
                    deck[i], deck[j] = deck[j], deck[i]

                for t in range(vpb):
                    # Choose the cards of fights t .. end - 1: without greedy seats, the whole
                    # battle's at its first fight (see above); with them, each fight's as it comes.
                    # (One call site: greedy's large chooser is inlined, and compiled, once.)
                    end = t + 1 if with_greedy else (vpb if t == 0 else 0)
                    for u in range(t, end):
                        _choose_plays(players, u, vpb, deck[u], plan, hand_mask, restrict, restricted,
                                      sids, prm, tokens, reserve, centre, strength, rewards, n_places,
                                      cfg, states, scratch, with_greedy)
                        if rulebook:
                            plan[u, players] = table[tally_key(players, plan[u])]
                    villain = deck[t]
                    plays = plan[t]
                    in_centre = centre[0] + centre[1] + centre[2]
                    beaten = resolve_fight(players, cfg, first, villain, plays, tokens, reserve, centre,
                                           strength, rewards, n_places, record, order, rulebook,
                                           plan[t, players])
                    # Per-seat counters without data-dependent branches: random plays make such
                    # branches unpredictable, and adding a zero is cheaper than a mispredict.
                    fight_sum = 0
                    for p in range(players):
                        card = plays[p]
                        rec = record[p]
                        was_rewarded = np.int64(((rec >> _REC_GAINED) & 0xFFFF) != 0)
                        card_acc[p, card] += (rec + (1 << _REC_PLAYS)
                                              + (was_rewarded << _REC_REWARDED))
                        rewarded_mask[p] |= was_rewarded << card
                        fight_sum += rec  # fields add up without carries, as in card_acc
                    handed = (fight_sum >> _REC_GAINED) & 0xFFFF
                    taken = (fight_sum >> _REC_LOST) & 0xFFFF
                    won = np.int64(beaten)
                    beaten_count += won
                    villain_acc[villain] += _pack_fight(won, (handed - in_centre) * won,
                                                        in_centre * won, taken)
                # The cards played this battle are those that left the hands.
                for p in range(players):
                    played_mask[p] |= full_mask & ~hand_mask[p]
                first = first + 1 if first + 1 < players else 0

            best = -1
            for p in range(players):
                scores[p] = score3(tokens[p, 0], tokens[p, 1], tokens[p, 2], bonus)
                best = max(best, scores[p])
            winners = 0
            for p in range(players):
                winners += scores[p] == best
            out_beaten[g] = beaten_count
            share = WIN_UNIT // winners
            for p in range(players):
                s = scores[p]
                top = np.int64(s == best)
                units = share * top
                out_scores[g, p] = s
                out_win_units[g, p] = units
                for c in range(3):
                    out_tokens[g, p, c] = tokens[p, c]
                score_acc[p, s] += 1
                ahead = 0
                for q in range(players):
                    ahead += np.int64(s > scores[q]) << (8 * q)
                pair_acc[p] += ahead
                r = winners * top  # the outcome class (see _SPREAD8)
                pm = played_mask[p] | 1  # value 0: the game itself
                rm = rewarded_mask[p]
                game_acc[0, 0, p, r] += _SPREAD8[pm & 255]
                game_acc[1, 0, p, r] += _SPREAD8[rm & 255]
                if not rulebook:  # the rulebook loops' hands have no card above 7
                    game_acc[0, 1, p, r] += _SPREAD8[pm >> 8]
                    game_acc[1, 1, p, r] += _SPREAD8[rm >> 8]
            in_batch += 1
            if in_batch == batch:
                _flush_counts(players, hand, card_acc, card_stats, villain_acc, villain_stats)
                _flush_games(players, game_acc, pair_acc, seat_stats, card_stats, pair_stats)
                in_batch = 0
        _flush_counts(players, hand, card_acc, card_stats, villain_acc, villain_stats)
        _flush_games(players, game_acc, pair_acc, seat_stats, card_stats, pair_stats)
        _fold_scores(players, score_acc, seat_stats, score_hist)


    name = ("_play_chunk" + ("_greedy" if with_greedy else "")
            + (f"_{fixed_players}p" if fixed_players else "") + ("_rulebook" if rulebook else ""))
    loop.__name__ = loop.__qualname__ = name
    return _Loop(jit_nonrt(loop), rulebook)


# The general loops (any player count and rules, restricted seats allowed), with and without
# greedy, and (with greedy, players, rulebook) -> the loop for that line-up and those rules
# without restricted seats.
_GENERAL_LOOPS = {greedy: _compiled_loop(0, greedy, True, False) for greedy in (False, True)}
_FIXED_LOOPS = {}
for _n in (3, 4, 5):
    _FIXED_LOOPS[False, _n, False] = _compiled_loop(_n, False, False, False)
    _FIXED_LOOPS[False, _n, True] = _compiled_loop(_n, False, False, True)
    _FIXED_LOOPS[True, _n, False] = _FIXED_LOOPS[True, _n, True] = _compiled_loop(_n, True, False, False)


@jit_inline
def _choose_plays(players, t, vpb, villain, plan, hand_mask, restrict, restricted, sids, prm,
                  tokens, reserve, centre, strength, rewards, n_places, cfg, states, scratch,
                  with_greedy):
    """Every seat chooses its card for fight t of the battle (plan[t, p]); the cards then
    leave the hands (hand_mask, every seat's remaining hand as a bitmask)."""
    for p in range(players):
        # Restricted play: hide the seat's banned cards while it alone chooses (the others
        # still see its whole public hand).
        hidden = 0
        if restricted:  # the same every time: a branch predicted right
            hidden = _banned(restrict, p, vpb - 1 - t) & hand_mask[p]
            if hidden != 0 and hidden != hand_mask[p]:
                _hide(hand_mask, p, hidden, -1)
            else:
                hidden = 0
        plan[t, p] = choose_card(players, sids[p], prm, p, hand_mask, tokens, reserve, centre,
                                 villain, strength, rewards, n_places, cfg, vpb - 1 - t, states,
                                 scratch, with_greedy)
        if hidden != 0:
            _hide(hand_mask, p, hidden, 1)
    for p in range(players):
        hand_mask[p] &= ~(1 << plan[t, p])


@jit
def replay_game(cfg, strength, rewards, n_places, start, villain_order, plays, trace_tokens,
                trace_reserve, trace_centre, trace_beaten):
    """Replay one scripted game: no randomness, no strategies. start int64[P, 3].

    villain_order int64[battles, vpb] villain indices in fight order; plays int64[battles,
    vpb, P] card values. Writes the state after each fight f = b * vpb + t:
    trace_tokens int64[F, P, 3], trace_reserve / trace_centre int64[F, 3], trace_beaten int64[F].
    """
    players = cfg[Cfg.PLAYERS]
    tokens = np.zeros((players, 3), np.int64)
    reserve = np.zeros(3, np.int64)
    centre = np.zeros(3, np.int64)
    for c in range(3):
        reserve[c] = cfg[Cfg.TOKENS_PER_COLOUR] - start[:, c].sum()
        tokens[:, c] = start[:, c]
    record = np.zeros(players, np.int64)
    order = np.zeros(players + 1, np.int64)
    f = 0
    for b in range(villain_order.shape[0]):
        for t in range(villain_order.shape[1]):
            trace_beaten[f] = resolve_fight(players, cfg, b % players, villain_order[b, t],
                                            plays[b, t], tokens, reserve, centre, strength,
                                            rewards, n_places, record, order, False, 0)
            trace_tokens[f] = tokens
            trace_reserve[f] = reserve
            trace_centre[f] = centre
            f += 1
