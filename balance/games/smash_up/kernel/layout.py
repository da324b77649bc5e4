"""The kernel's state layout: column and list numbers shared by every kernel module.

One game's state lives in a few integer arrays (allocated once per chunk, reused per game),
every one int64 (but the streams, uint64): a value read from an int32 array is an int32, and
each function called with it would be compiled again for that type, with everything it calls
(measured: a dozen copies of the commonest helpers, the main cost of a cold compile).

- ``cs int64[ncards, C_N]``: one row per physical card (card id = seat * DECK + position in
  the seat's unshuffled deck, the reference's creation order); the columns below.
- ``lst int64[L_N(ncards), CAP]`` with lengths ``ln int64[L_N]``: every ordered list — decks
  (top = last), hands, discard piles, each slot's minions and attached actions (arrival
  order), the base deck and discard, each seat's cards in play with a talent or a triggered
  ability (any order), and each minion's attached actions.
- ``ss int64[MAX_SLOTS, S_N]``: per base in play; ``ps int64[MAX_PLAYERS, P_N]``: per seat;
  ``tv int64[T_N]``: the turn; ``gr int64[MAX_GRANTS, 2]``: open minion grants (kind, slot);
  ``fs int64[MAX_DEPTH, F_N]`` and ``sc int64[MAX_DEPTH, CAP]``: the resolution stack.

The state travels as one numpy record ``st`` (``run.STATE``, a structured dtype) whose fields
are these arrays, plus the run's read-only tables: ``defs`` and ``bases`` (``tables``), ``rs``
(the rules row), ``strat`` (the seats' strategies), ``pg`` (the cards' effect programs,
``opcodes``). Every kernel function unpacks it on its first line (``unpack``).

Why a record and not a tuple of arrays: numba passes a tuple's arrays to a called function
field by field (17 arrays, about 150 machine words on the stack at every call), but a record
as one pointer. The kernel is many small functions calling each other, and that copying took
much of its time (the record: greedy x1.85, docs/BENCHMARKS.md).
"""
from balance.core._jit import jit_inline


def pow2(n: int) -> int:
    """The width a table's rows are padded to: the least power of two >= ``n``. The kernel finds
    ``a[i, j]`` at ``i * width + j``: for a power of two that is a shift, where another width is a
    multiply, on the way to every load from a row whose index was itself loaded (a card's row,
    then its definition's). Measured: greedy games at 2 players x1.02 faster, random at 4
    players x1.02 (docs/BENCHMARKS.md, session 30)."""
    return 1 << (n - 1).bit_length()


MAX_PLAYERS = 4
DECK = 40  # two factions of 20
MAX_SLOTS = 16
CAP = 160  # the longest list: every minion of every seat on one base
SCRATCH = 2 * CAP  # scratch lists of candidates (hosts and the like, at most every card + 1)
SEA_OPTIONS = 8 * 256  # Sea Dogs' (faction, from, to) options: 8 x 16 x 15 at most
MAX_GRANTS = 32
MAX_OPTIONS = 4096  # a choice's options (minion plays: cards x bases)

# cs columns
C_DEF, C_OWNER, C_ZONE, C_CTRL, C_SLOT, C_ENTERED, C_COUNTERS, C_TEMP, C_TALENT, C_STEGO, \
    C_BUCC, C_HOST, C_NAMED, C_TOUCH, C_TURN = range(15)
C_N = pow2(C_TURN + 1)  # the columns above and a spare
# C_TURN: the turn an attached action attached in (the reference's ``Attached.turn``).
# C_NAMED: a minion's once-per-turn use (``MARK self used``: the turn + 1; the reference's
# ``flags`` keyed by card, so it survives the card leaving and re-entering play); Block the
# Path's named factions (a bit each).
# C_TOUCH (2012 list only): bit d set once the own steps of the card played at frame depth d
# affected this minion (``board.touch``); the 2012 Brownie reads it when that play ends

# zones
Z_NONE, Z_DECK, Z_HAND, Z_DISCARD, Z_MINION, Z_ATTACHED = range(6)

# list numbers
L_DECK, L_HAND, L_DISC = 0, 4, 8
L_SMIN = 12  # + slot
L_SACT = L_SMIN + MAX_SLOTS  # + slot
L_BDECK = L_SACT + MAX_SLOTS
L_BDISC = L_BDECK + 1
L_TRIGGERED = L_BDISC + 1  # + seat: its cards in play with D_TRIGGERS (``board.track_triggered``)
L_ATT = L_TRIGGERED + MAX_PLAYERS  # + card id: actions attached to that minion


def n_lists(ncards: int) -> int:
    return L_ATT + ncards


# ss columns
S_BASE, S_REDUCTION, S_TARPITS, S_CANCEL, S_SINCE = range(5)  # S_SINCE: turns played when it came into play
S_N = pow2(S_SINCE + 1)

# ps columns; P_BASES_USED: a bit per base definition row, set once this player used that
# base's once-per-turn ability this turn (The Homeworld, Cave of Shinies: ``MARK self used``);
# P_TENACIOUS_Z: 1 if the seat's deck holds a Tenacious Z (only then is its discard pile
# searched for one at every Play Cards choice); P_ALPHAS, P_FIXERS, P_MINIONS: the Microbot
# Alphas, Microbot Fixers and minions in play the seat controls (``board.count_minion``)
P_VP, P_MINIONS_PLAYED, P_ACTIONS_PLAYED, P_SLEEP_MODE, P_SLEEP_BY, P_BASES_USED, P_TENACIOUS_Z, \
    P_ALPHAS, P_FIXERS, P_MINIONS, P_N = range(11)
# P_SLEEP_MODE: Mark of Sleep's, until the start of the turn of P_SLEEP_BY: no actions, no moves, or
# (the 2012 card) no actions during the marked seat's own turn only
SLEEP_NONE, SLEEP_ACTIONS, SLEEP_MOVES, SLEEP_ON_TURN = 0, 1, 2, 3

# tv entries
T_CURRENT, T_TURNS, T_FREE_MIN, T_FREE_ACT, T_EXTRA_ACT, T_PHASE_MIN, T_IN_PHASE, T_ENTRY, \
    T_NGRANTS, T_NSLOTS, T_TENACIOUS, T_PLAYERS, T_SP, T_WINDOW, T_MICROBOTS, T_QUIET, T_MEMO, T_MEMO_P, \
    T_ASIF, T_RAPTORS, T_FACTIONS, T_RUNNERS, T_MEMO_AT = range(23)
# T_MEMO: while a greedy seat's Play Cards choice is made (``turn.greedy_play``: the board does
# not change while its wants and hosts are asked), 1 = a board reading for seat T_MEMO_P may be
# kept, 2 = kept in tv[T_MEMO_AT:T_N] (``baseline.board_reading``); 0 otherwise
MEMO_N = 3 * MAX_PLAYERS + 4 * MAX_SLOTS  # board.CNT_N + baseline.BOARD_READING
T_N = T_MEMO_AT + MEMO_N
# T_WINDOW: 1 + the depth of the before-scoring window's frame while one is open, else 0
# T_MICROBOTS: 1 if a deck of this game holds a Microbot Alpha or Fixer (whose power reads the
# board), else 0 (set up once per game: a board reading then skips the count)
# T_RAPTORS: 1 if a deck of this game holds a card whose power counts its name on its base
# (static PER_NAME_HERE: War Raptor), else 0 (a slot's reading then skips that count)
# T_FACTIONS: a bit per faction (``D_FACTION``) some deck of this game holds a card of: a
# faction's rule-wide code (its Specials, its extra Play Cards moves) runs only in its games
# T_RUNNERS: the runners-up (second place) of the base scored last, a bit per turn-order position
# from the current player (``turn.score_base``; a base's ``FOR runners_up``, which its
# after_replaced program runs once the base's minions are gone)
# T_QUIET: > 0 while a destruction's replacements and triggers run (``triggers.destroy``): they
# are not the own steps of the card being played, whatever frame is on top (``board.touch``)
# T_ASIF: > 0 while the baseline edits the board "as if" (to read it, then restore it exactly,
# ``board.as_if``): the counts kept per seat (P_ALPHAS ...) are then not the board's

# grant kinds, most restrictive first [D12]
G_AT, G_EMPTY, G_TWO, G_DISC, G_ANY, G_FREE = range(6)

# card kinds
K_MINION, K_ACTION, K_DUAL = range(3)

# play-phase move kinds (the reference's tuples)
MV_HAND, MV_DISCARD, MV_TENACIOUS, MV_ACTION, MV_TALENT, MV_CTGY, MV_END = range(7)

# card hooks a resumable card frame runs (``hooks.card_step``); DONE ends the frame. H_START,
# H_END (a card in play's start- and end-of-turn abilities), H_AFTER_PLAYED (a card in play
# reacting to a minion just played, ``F_M``) and H_AFTER_SCORING (a minion's after-scoring
# Special on the base that scored) run data programs only; H_AFTER_DESTROYED (after a minion is
# destroyed: its base's program, and the minion's own) and H_AFTER_DISCARDED (a minion's own,
# after it is discarded from play because its base scored) are leaf programs, run inside the
# destruction or the scoring without a frame (``triggers.leaf``). A base's programs (bases.toml)
# run for H_AFTER_SCORING, H_AFTER_PLAYED, H_AFTER_DESTROYED, H_START (at the start of every
# player's turn, "me" that player) and H_AFTER_REPLACED (once the base scored and another took
# its place: Tortuga's)
H_ON_PLAY, H_ACTION, H_ATTACH, H_TALENT, H_SPECIAL, H_START, H_END, H_AFTER_PLAYED, H_AFTER_SCORING, \
    H_AFTER_DESTROYED, H_AFTER_DISCARDED, H_AFTER_REPLACED = range(12)
N_HOOKS = 12
DONE = -1

# frames of the resolution stack (``vm``): a procedure, its step, its arguments and registers
F_PROC, F_PC, F_P, F_C, F_S, F_X, F_Y, F_Z, F_I, F_J, F_K, F_L, F_SHIELD, F_M, F_N = range(15)
# F_M (an H_AFTER_PLAYED card frame): the minion whose play triggered it
# F_SHIELD (an action play's frame, 2012 list): bit q * MAX_SLOTS + s set once a 2012 Hideout
# shields seat q's minions on slot s from the rest of this action (``board.touch``)
MAX_DEPTH = 63  # nested resolutions (a play inside a play ...); sc[depth] is that frame's list
# (a depth is a bit of the int64 C_TOUCH, so at most 63)

# the procedures a frame runs (``stack`` pushes them, ``vm.run`` executes them); PR_OFFER: a
# card's offer to play an action at once (``effects.py``'s PLAY_ACTION, ``vm.offer``);
# PR_LOOKAHEAD: Mass Enchantment trying each revealed action on the saved state (``lookahead``)
PR_PLAY_MINION, PR_AFTER_PLAYED, PR_GRANT_NOW, PR_PLAY_ACTION, PR_CARD, PR_GRANT_ACTION, \
    PR_WINDOW, PR_OFFER, PR_LOOKAHEAD = range(9)
N_PROCEDURES = 9

# strategies: ``strat`` int64[STRAT_N]: each seat's kernel strategy (RANDOM or GREEDY, a
# planner plays as GREEDY), then from SW_READY + 2p and SW_DENY + 2p its V weights in percent
# (the baseline's: 200 and 100, see ``board.V``)
RANDOM, GREEDY = 0, 1
SW_READY, SW_DENY = MAX_PLAYERS, MAX_PLAYERS + 1
STRAT_N = 3 * MAX_PLAYERS
BASELINE_READY, BASELINE_DENY = 200, 100

# stats row per game (``play_game``'s output): the winner (-1: capped), turns, VP per seat, the
# base each seat last gained VP from (-1: none), then per base (definition row) its BST_ counters
O_WINNER, O_TURNS, O_VP, O_LAST, O_BASE = 0, 1, 2, 6, 10
# per base: times it came into play, times scored, turns it was in play when scored (sum and
# sum of squares), VP gained by the seats at 1st/2nd/3rd place there, games it decided (the
# winner's last VP came from it)
BST_ENTERED, BST_SCORED, BST_TURNS, BST_TURNS_SQ, BST_VP1, BST_VP2, BST_VP3, BST_DECIDED, \
    BST_N = range(9)
N_BASE_DEFS = 16
# then per seat the cards it played this game (``vm.mark_played``): a bitmask over definition
# rows, 2 words (MAX_DEFS bits) from O_PLAYED + 2 * seat
O_PLAYED = O_BASE + N_BASE_DEFS * BST_N
MAX_DEFS = 128
O_N = O_PLAYED + 2 * MAX_PLAYERS
# card_totals int64[MAX_DEFS, CT_N] (``games.play_games``), per definition row, pooled over the
# seats: seat-games whose deck held it, how many of those the seat won; seat-games in which the
# seat played it from its own deck, how many of those it won
CT_IN_DECK, CT_IN_DECK_WON, CT_PLAYED, CT_PLAYED_WON, CT_N = range(5)


# cycle probes (``_jit.PROBE``, ``scripts/phases.py``): ``st.probe`` int64[PROBE_ROWS, 3], per row
# (cycles, calls, yes). Per game: setup; per turn: its phases; per greedy Play Cards choice:
# the whole choice, its talent and extra-move wants, its minion move (card and PLACE); per move
# done: PB_MOVE + its kind (MV_*); per step ``vm.run`` takes: PB_STEP + 5 x its procedure
# (PR_*, a finished frame's as N_PROCEDURES) + its step (4: 4 and later); per action want asked in the
# choice: PB_WANT + the card's name code (``names``), yes when it wants to be played
PB_SETUP, PB_START, PB_PLAY, PB_SCORE, PB_END, PB_CHOICE, PB_TALENTS, PB_MINION = range(8)
PB_MOVE = 8
PB_STEP = 16
PB_WANT = PB_STEP + (N_PROCEDURES + 1) * 5
PROBE_ROWS = PB_WANT + 128  # the names: 95 card names


# ---- the state record ---------------------------------------------------------------------------
# Its fields in the order every kernel function unpacks them (``run.STATE`` gives their shapes).
STATE_FIELDS = ("cs", "lst", "ln", "ss", "ps", "tv", "gr", "defs", "bases", "rs", "states", "strat",
                "opt", "stats", "fs", "sc", "pg")
MAX_PROG = 1024  # program rows (``pg``): the assembled data programs of every card list

# The look-ahead's saved state (``lookahead``): ``snap`` int64 (not unpacked: only ``lookahead``
# reads it) is a header, then the SNAP_SAVED arrays, each list and the stack only as far as they
# are filled (``run.state_dtype`` sizes it from their shapes); ``snap_states`` uint64[1 +
# MAX_PLAYERS] the random streams. The header survives a restore: SN_ACTIVE 1 while a look-ahead
# runs, SN_I the candidate being tried, from SN_V the V each candidate left (one per other player).
SN_ACTIVE, SN_I, SN_V = 0, 1, 2
SNAP_AT = SN_V + MAX_PLAYERS
SNAP_SAVED = ("cs", "ln", "lst", "ss", "ps", "gr", "stats", "tv", "fs", "sc")  # ``lookahead.transfer``'s


@jit_inline
def unpack(st):
    """The state record's arrays, in ``STATE_FIELDS`` order (views into the record, no copy)."""
    return (st.cs, st.lst, st.ln, st.ss, st.ps, st.tv, st.gr, st.defs, st.bases, st.rs, st.states,
            st.strat, st.opt, st.stats, st.fs, st.sc, st.pg)
