"""The card-effect program format (docs/SMASH_UP_EFFECTS.md): the numbers the assembler
(``smash_up.effects``, plain Python) writes and the interpreter (``kernel.effects``) reads.

A program is rows of ``prog int64[n, I_N]`` (the state's ``st.pg``): one instruction per row,
its opcode in ``I_OP`` and its operands in the columns below, ending with ``OP_END``. A card's
program for a hook starts at row ``defs[d, D_PROG + hook]`` (-1: the faction module runs the
hook), a base's at ``bases[b, BS_PROG + hook]`` (-1: ``kernel/bases.py`` runs it, or
nothing). Its want (does the baseline play this action now?) is a program of ``OP_IF`` rows from
``defs[d, D_WANT]`` (-1: the faction module decides): the want holds when every condition does.
"""
# instruction columns: the opcode, then its operands
I_OP = 0
# OP_SEL_MINION's selector (one row holds the whole selector)
I_WHERE, I_WHO, I_TEST, I_VSRC, I_VAL, I_LEGAL, I_MODE, I_COUNT, I_RULE, I_FLAGS = range(1, 11)
# SEL_CARD's row: the pile (I_WHERE), the kind of card (I_TEST), a printed-power limit (I_VAL,
# with CARD_PRINTED_LE in I_FLAGS), I_LEGAL (LEGAL_ALLOWED: playable on the chosen base F_I),
# I_MODE, I_COUNT, I_RULE and the flag CARD_BY_NAME; with RULE_PREFER the next row (OP_NAMES)
# holds the name codes the baseline prefers, in order, -1 after the last
# the other opcodes' operands (IF's I_ARG3: the rows to skip when the condition fails, 0 = end)
I_ARG1, I_ARG2, I_ARG3 = 1, 2, 3
I_NOT = 4  # OP_IF's and OP_MAY's: 1 when the condition is negated (``IF not COND``)
I_N = 11

# opcodes
OP_END, OP_IF, OP_DRAW, OP_GAIN_VP, OP_GRANT_MINION, OP_GRANT_ACTION, OP_DISCARD_RANDOM, \
    OP_HAND_TO_DECK, OP_SHUFFLE, OP_SEL_MINION, OP_DESTROY, OP_RETURN, OP_BOTTOM, OP_POWER_TEMP, \
    OP_MOVE, OP_MARK, OP_REVEAL, OP_SEL_CARD, OP_TO_PILE, OP_SEL_PLAYER, OP_SEL_BASE, OP_PLAY_MINION, \
    OP_MAY, OP_FOR, OP_NEXT, OP_TAKE_TOP, OP_RESTACK, OP_NAMES, OP_SLEEP, OP_DISCARD_SELF, OP_SEL_HOST, \
    OP_REDUCE_BREAKPOINT, OP_SEL_PLAYED, OP_DISCARD_CHOICE_PLAYED, OP_MARK_USED, OP_SEL_SELF, OP_MOVE_SELF, \
    OP_DISCARD_HAND, OP_TAKE_NAMED, OP_COUNTERS, OP_PLAY_SELF, OP_PLAY_ACTION = range(42)
# steps that act on the card itself as a minion (a minion card's hooks only)
SELF_MINION_STEPS = (OP_SEL_SELF, OP_MOVE_SELF)
# OP_DRAW's amount (I_ARG1): the number I_ARG2, your minions on the chosen base (F_I), or the
# power of the first selected minion (none selected: nothing)
DRAW_FIXED, DRAW_MINE_AT_BASE, DRAW_SEL_POWER = 0, 1, 2
# OP_FOR's list (I_ARG1), fixed when the loop starts: the bases with no minion of yours, or every
# base (FOR_BASES, after the others: a card's base loop); or, in
# a base's program, players in turn order from the current one: the base's winners (first
# place), those with a minion on it, every player, those not in first place, or the runners-up
# of the base just scored (second place; ``layout.T_RUNNERS``). A player loop makes each listed
# player the frame's player (``F_P``, "me") in turn. FOR's I_ARG2 is the row offset of its
# OP_NEXT, whose I_ARG1 is the offset back to the OP_FOR
FOR_BASES_NONE_MINE, FOR_WINNERS, FOR_PLAYERS_HERE, FOR_PLAYERS, FOR_NON_WINNERS, FOR_RUNNERS_UP, FOR_BASES = range(7)
# ... and a card's loop over the other players in turn order after "me", each the chosen player
# (F_Z) in turn while "me" stays (Mark of Sleep)
FOR_OTHERS = 7
# OP_SLEEP's (I_ARG1): no actions during the chosen player's own next turn (the 2012 Mark of
# Sleep: layout.SLEEP_ON_TURN), or "me" picks no actions or no moves until its next turn
SLEEP_ACTIONS_ONLY, SLEEP_CHOICE = 0, 1
# OP_PLAY_ACTION's options (I_ARG1 bits): the selected action may go to your hand instead (listed
# first), and may be declined (listed last: it stays where it is); its rule is the baseline's
# want of the card (``vm.offer``)
PLAY_ALT_HAND, PLAY_MAY = 1, 2
# OP_TAKE_TOP puts the cards it takes in sc[d, REVEALED:REVEALED + F_J] (the frame's revealed
# cards), apart from the selection in sc[d, :F_K]
MAX_REVEAL = 8

# SEL_MINION: where (I_WHERE), whose (I_WHO), the test (I_TEST against a value from I_VSRC and
# I_VAL), what may be done to it (I_LEGAL), how many are chosen (I_MODE, I_COUNT), the baseline's
# rule (I_RULE), flags (I_FLAGS). In a base's program the legality is for no player's card
# (the reference's ``destroyable(m, None, False)``), and a DESTROY is by no player
WHERE_ANY, WHERE_HERE = 0, 1
WHERE_BASE = 4  # SEL_MINION's: on the base SEL_BASE chose (the frame's F_I; not in a want)
WHERE_SEL_BASE = 5  # SEL_MINION's: on the base of the minion selected before (sc[d, 0])
# MOVE's where (I_WHERE): minions anywhere to any other base, minions "here" to another base,
# minions elsewhere to "here", or the moves out of "here" and then those into it
WHERE_TO_HERE, WHERE_OUT_OR_IN = 2, 3
OWNER_ANY, OWNER_MINE, OWNER_THEIRS = 0, 1, 2
TEST_NONE, TEST_POWER_LE, TEST_POWER_LT, TEST_PRINTED_LE = 0, 1, 2, 3
TEST_TOP_POWER = 4  # of the minions the rest admits, those of the highest power (Temple of Goju)
TEST_LOWEST_MIXED = 5  # on a base whose minions' powers differ, those of the lowest power (else none)
# a number, the card's controller's minions on its base, or the power of the minion selected
# before (sc[d, 0])
VAL_LITERAL, VAL_MINE_HERE, VAL_SEL_POWER = 0, 1, 2
LEGAL_NONE, LEGAL_AFFECT, LEGAL_DESTROY = 0, 1, 2
# one (mandatory: no decline), up to I_COUNT (each may decline), each candidate (no choice), or
# a yes/no per candidate in list order (yes first)
MODE_ONE, MODE_UP_TO, MODE_EACH, MODE_EACH_MAY = 0, 1, 2, 3
# the baseline's rules: SEL_MINION's, then MOVE's (over (minion, base) pairs)
RULE_HIT, RULE_STRONGEST_THEIRS, RULE_BEST_MOVE, RULE_HIT_TO_GAP = 0, 1, 2, 3
# SEL_CARD's (the highest printed power, first on ties; take each), SEL_PLAYER's (most VP, the
# next in turn order on ties), SEL_BASE's (PLACE for the selected card)
RULE_BEST_PRINTED, RULE_YES, RULE_OPPONENT = 4, 5, 6
# MOVE's: in or out of the scoring base as Full Sail's Special (``baseline.sail_default``) while
# a base is scoring, else BEST_MOVE; SEL_CARD's: the first candidate with a preferred name
RULE_SAIL, RULE_PREFER = 8, 9
# SEL_BASE's: PLACE for the selected minion card (legal=allowed, mode=may), or (any base,
# mode=one) the base with most of your minions, the lower slot on ties
RULE_PLACE, RULE_MOST_MINE = 7, 10
# SEL_CARD's: the first card of another player, else none (-1)
RULE_THEIRS = 11
# SEL_MINION's: the highest printed power (the first on ties; The Mothership); HIT among the
# candidates not on "here" (Ninja Dojo); the lowest printed power among the minions without an
# after-scoring ability, else among all (Temple of Goju [D33]; the first on ties)
RULE_HIGHEST_PRINTED, RULE_HIT_ELSEWHERE, RULE_SPARE_SPECIALS = 12, 13, 14
# MOVE's for the bases (``kernel/bases.py``): your highest-power minion "here" to the base PLACE
# picks (The Grey Opal); your highest-power minion whose leaving costs you no VP where it is
# (Tortuga); another player's strongest minion "here" to the base with the largest gap, when
# someone outranks you here (Mushroom Kingdom)
RULE_STRONGEST_BY_PLACE, RULE_FREE_STRONGEST, RULE_PUSH_OUT = 15, 16, 17
# hand-written rules for one card each (``kernel/choosers.py``): SEL_MINION's Sacrifice,
# Augmentation and Rampage, SEL_CARD's Grave Robbing, SEL_BASE's (any base, mode=one) Crop Circles
RULE_SACRIFICE, RULE_GRAVE_ROBBING, RULE_AUGMENTATION, RULE_RAMPAGE, RULE_CROP_CIRCLES = 18, 19, 20, 21, 22
# TAKE_NAMED's, for Mall Crawl and Not Enough Bullets; a card's MOVE's, for Invasion
RULE_CRAWL, RULE_BULLETS, RULE_INVASION = 23, 24, 25
# SEL_MINION's, for Natural Selection's minion of yours and Powderkeg's; SEL_CARD's, for the 2012
# Disenchant
RULE_NS_MINE, RULE_POWDERKEG, RULE_DISENCHANT = 26, 27, 28
# SEL_MINION's HELP (your minion on the smallest-gap base, the highest power; ``baseline.help_``);
# SEL_CARD's for Pixie's action (``choosers.theirs_outranked``)
RULE_HELP, RULE_THEIRS_OUTRANKED = 29, 30
# SEL_BASE's: the base about to score (the before-scoring window's; no window: the program ends)
RULE_SCORING = 31
RULE_HERE = 32  # SEL_BASE's: the card's own base (a card in play: its talent, before it leaves)
# OP_MOVE_SELF's (I_ARG1): you may move it to a base of your choice (PLACE), or it moves to the
# chosen base (SEL_BASE; Pirate King's Special)
MOVE_SELF_MAY, MOVE_SELF_TO_BASE = 0, 1
# OP_REDUCE_BREAKPOINT's base and amount (I_ARG1): the card's own base by the number I_ARG2 (an
# attached card), or the first selected minion's base by that minion's power now (Rampage)
REDUCE_HERE, REDUCE_SEL_POWER = 0, 1
# SEL_CARD's pile: your discard pile, the chosen player's hand, your deck (from the top, rebuilt
# first when empty), the frame's revealed cards (OP_TAKE_TOP), the actions on the card's base
# (not on minions there), the other actions on the minion the card is attached to
PILE_DISCARD, PILE_HAND_OF_CHOSEN, PILE_DECK, PILE_REVEALED, PILE_ACTIONS_HERE, PILE_ACTIONS_ON_HOST = range(6)
PILE_ACTIONS_IN_PLAY = 6  # every action in play: on bases (slot order), then on minions (board order)
PILE_HAND = 7  # your hand (hand order)
KIND_ANY, KIND_MINION, KIND_ACTION, KIND_MICROBOT = 0, 1, 2, 3  # SEL_CARD's kind
TO_HAND, TO_DECK, TO_DISCARD = 0, 1, 2  # TO_PILE's destination (I_ARG1)
# TAKE_NAMED's row (you name a card of your pile, then take copies of it): the pile (I_WHERE:
# PILE_DECK or PILE_DISCARD), the kind of card named (I_TEST: KIND_ANY or KIND_MINION), where
# the copies go (I_VAL: TO_HAND or TO_DISCARD) and the rule naming it (I_RULE)
LEGAL_ALLOWED = 3
FLAG_NOT_SAME_NAME = 1  # not a minion of this card's name (Collector under [D4])
FLAG_SEL_FIRST = 2  # SEL_MINION's: the minion selected before first, if admitted (Powderkeg's)
FLAG_APPEND = 4  # SEL_MINION's: added to the selection, not replacing it (a loop's picks, together)
CARD_PRINTED_LE, CARD_BY_NAME = 2, 4  # SEL_CARD: printed power <= I_VAL; one per name, data order

# a card's before-scoring Special (``window`` in the data; tables.D_WINDOW, 0: none): where the
# card offers it from, your hand (the first copy there; a minion must be playable on the scoring
# base, an action playable by you), another base (each of your copies that may move to the
# scoring base) or the scoring base (the first of your copies there not used in this window),
# and its limits: one use per player per scoring of a base (Shinobi [D26]); only as a Special,
# never an ordinary play (Hidden Ninja [D25]); one use per copy per scoring (Gnome [D26]); one
# option per candidate of the special's first step, a SEL_MINION, which the option then makes
# (Gnome's targets)
WINDOW_HAND, WINDOW_ELSEWHERE, WINDOW_ONCE_PER_PLAYER, WINDOW_ONLY = 1, 2, 4, 8
WINDOW_HERE, WINDOW_ONCE_PER_CARD, WINDOW_EACH_TARGET = 16, 32, 64

# a base's VP when it scores beyond its places' (``scoring_vp`` in bases.toml; tables.BS_VP_RULE,
# its number N in BS_VP_ARG): none; each winner gains its power there // N (Factory 436-1337);
# each player gains N per minion of theirs there (Rhodes Plaza Mall)
VP_NONE, VP_WINNERS_POWER_DIV, VP_PER_MINION = 0, 1, 2

# static abilities (``static`` in the data; definition-row columns, ``tables.D_HOST_POWER`` ...):
# flags, and the protection an attached action gives (from other players' cards or actions, to
# its host minion or to its controller's minions on its base)
FL_INDESTRUCTIBLE, FL_MICROBOT = 1, 2
PROT_CARDS_HOST, PROT_ACTIONS_HOST, PROT_ACTIONS_MINE_HERE = 1, 2, 4
# a play-on action's host rule (``host`` in the data; tables.D_HOST; kernel/hosts.py): on a minion
HOST_HELP, HOST_HELP_W, HOST_HIT_M, HOST_HIT_UNSCORED = 1, 2, 3, 4
# ... and on a base
HOST_LEAD_GAP, HOST_BEHIND_GAP, HOST_OPP_ABILITY_GAP, HOST_LEAD_MOST, HOST_MOST_MY_POWER, \
    HOST_MOST_THEIR_POWER, HOST_PLACE_FROM_HAND, HOST_PLACE_FROM_DISCARD_HAND, HOST_THEIR_ACTION = range(5, 14)

# conditions (OP_IF's I_ARG1, with I_ARG2 its number, or for those that read a selection the
# row of the action's first SEL_MINION or MOVE)
COND_ALWAYS, COND_NEVER, COND_FIRST_MINION, COND_HAS_HIT, COND_HAND_LE, COND_HAND_HAS_MINION, \
    COND_DISCARD_HAS_MINION, COND_MINION_PLAY_USEFUL, COND_HAS_BEST_MOVE, COND_HAS_OPTIONS, \
    COND_V_RISES, COND_DISCARD_GT_DECK, COND_SELECTED, COND_SEL_IS_MINION, \
    COND_SEL_MINION_PRINTED_LE, COND_DECK_HAS_ACTION, COND_MOST_MINE_GE, COND_ATTACHED_THIS_TURN, \
    COND_ALONE_FIRST_HERE, COND_UNUSED_THIS_TURN, COND_PLAYED_BY_OTHER, COND_PLAYED_ON_BASE, \
    COND_PLAYED_HERE, COND_PLAYED_WEAKER, COND_PLAYED_DESTROYABLE, COND_HAND_HAS_MINION_PRINTED_LE, \
    COND_HAND_MOST, COND_HAND_GT_SOMEONE, COND_PHASE_NO_MINION, COND_MINION_PLAYABLE_HERE, \
    COND_SEL_IS_ACTION = range(31)
# conditions that read the running card in play (its attach turn, its once-per-turn use, its
# base's places, what may be played on its base): never in a want (in a base's program,
# UNUSED_THIS_TURN reads "me"'s use of the base this turn, ``layout.P_BASES_USED``)
IN_PLAY_CONDITIONS = (COND_ATTACHED_THIS_TURN, COND_ALONE_FIRST_HERE, COND_UNUSED_THIS_TURN,
                      COND_MINION_PLAYABLE_HERE)
# conditions, and steps, that read the minion whose play triggered the card (F_M): after_played only
PLAYED_CONDITIONS = (COND_PLAYED_BY_OTHER, COND_PLAYED_ON_BASE, COND_PLAYED_HERE, COND_PLAYED_WEAKER,
                     COND_PLAYED_DESTROYABLE)
PLAYED_STEPS = (OP_SEL_PLAYED, OP_DISCARD_CHOICE_PLAYED)
# conditions that read the running frame's selection (never in a want)
FRAME_CONDITIONS = (COND_SELECTED, COND_SEL_IS_MINION, COND_SEL_MINION_PRINTED_LE, COND_SEL_IS_ACTION)
