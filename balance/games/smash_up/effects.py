"""Card effects as data: the assembler from ``data/effects/*.toml`` to the kernel's program rows.

docs/SMASH_UP_EFFECTS.md is the design; ``kernel/opcodes.py`` the row format; ``kernel/effects.py``
the interpreter. A card whose hook has a program here runs it in the kernel; the others keep their
hand-written code in ``kernel/cards/``. The reference (``reference/cards/``) stays hand-written, so
a wrong data row shows as a kernel = reference difference in the tests.

One file per faction; a card is a table keyed by its name, with a list of steps per hook
(``on_play``, ``action``, ``on_attach`` for a play-on action as it attaches, ``talent``,
``start`` and ``end`` for a card in play at the start of its controller's turn and at the end
of every turn, ``after_played`` for a card in play after any minion is played and its own
ability resolved, ``after_scoring`` for a minion on a base that just scored: its after-scoring
Special, ``after_destroyed`` for a minion just destroyed and ``after_discarded`` for a minion
discarded from play because its base scored: leaves, "me" its owner, ``CARD_LEAF_OPS`` only,
and ``special`` for a before-scoring Special, run when its player uses it in the window),
an optional ``want`` (for an action: when the baseline plays it), for a card with a ``talent``
an optional ``usable`` (conditions: when its player may use it; without one its faction module
says), its
``static`` abilities (what it does while in play, read by the kernel's power and protection
rules), for a play-on action its ``host`` rule and, for a card with a ``special``, its
``window``: where the card offers the Special from, ``hand`` (its first copy in your hand; a
minion must be playable on the scoring base, an action playable by you), ``elsewhere`` (each
of your copies on another base that may move to the scoring base) or ``here`` (the first of
your copies on the scoring base not used in this window), then any of ``once_per_player`` (one
such use per player per scoring of a base: Shinobi [D26]), ``only`` (an action played only so,
never as an ordinary play: Hidden Ninja [D25]), ``once_per_card`` (one use per copy per
scoring: the Gnome [D26]) and ``each_target`` (one option per candidate of the special's first
step, a SEL_MINION with mode=one, which the option then makes: the Gnome's targets). The
window lists the data's Specials in definition order (``kernel/window.py``); whether the baseline uses one
stays its faction module's ``special_want``. A step is a string: the opcode, then its
operands, bare or ``key=value``::

    ["Seeing Stars"]
    action = ["SEL_MINION where=any power<=3 legal=destroy mode=one rule=HIT", "DESTROY"]
    want = ["HAS_HIT"]

``bases.toml`` holds the bases' data, a table per base name (``BASE_HOOKS``): ``after_scoring``
steps (run once the base has scored, before its cards are discarded, "me" the current player
until a ``FOR`` loop over the base's players makes each listed player "me"), ``after_played``
(after a minion is played there, "me" its controller), ``after_destroyed`` (after a minion
there is destroyed, "me" its owner; a leaf: ``LEAF_OPS`` only), ``start_of_turn`` (at the start
of each player's turn, "me" that player) and ``after_replaced`` (once the base has scored and
another took its place: "here" is that slot, the base's minions are gone, so its only player
loops are ``FOR runners_up`` and ``FOR players``). A base's program runs as a frame with no
card: "here" is the base, only the steps and conditions that read no card are allowed
(``BASE_OPS``, ``BASE_CONDITIONS``), its ``legal=destroy`` and ``DESTROY`` are for no player's
card, as the reference's base code, and ``UNUSED_THIS_TURN`` / ``MARK self used`` are "me"'s
use of the base this turn. Beside them, ``static = ["MINION_POWER N"]`` (every minion on it has
+N power), ``scoring_vp = "WINNERS_POWER_DIV N"`` (each winner gains its power there // N VP)
or ``"PER_MINION N"`` (each player N VP per minion of theirs there), and ``if`` tables for a
rules switch or ``bases_2012`` (the 2012 printing of Cave of Shinies and Mushroom Kingdom).

A rules switch (``Rules.SWITCHES``) that changes a card is a table ``["Card".if.switch]`` whose
hooks replace the card's when the switch is on. The 2012 Tricksters list reads
``tricksters_2012.toml`` instead of ``tricksters.toml`` (its cards differ); an entry there may
say ``same_as_current = "Name"``: the current list's card of that name, as it is.

Steps (docs/SMASH_UP_EFFECTS.md §2.4; ``me`` is the card's controller, ``others`` every other
player in turn order after ``me``):

- ``DRAW me N``, ``DRAW me mine_at_base`` (as many as your minions on the chosen base),
  ``DRAW me sel_power`` (as many as the selected minion's power; none selected: none),
  ``GAIN_VP me N``, ``DISCARD others random N``, ``DISCARD me hand`` (your whole hand, in order)
- ``DECK_OPS me hand_to_deck`` (the hand goes onto the deck), ``DECK_OPS me shuffle``
- ``GRANT_MINION any|power<=2|empty|discard|here`` (one extra minion play: any, of printed
  power <= 2, onto a base with none of yours, from your discard pile, onto the card's base),
  ``GRANT_ACTION N``
- ``MARK self stego`` (Armor Stego's mark on the card itself), ``MARK self used`` (a minion's
  once-per-turn use is spent, for ``UNUSED_THIS_TURN``), ``MARK chosen sleep`` (the chosen
  player cannot play actions during its own next turn: Mark of Sleep, 2012), ``MARK
  chosen sleep choice`` (you pick: no actions, or no moves; the baseline's ``choosers.sleep_moves``,
  moves for a player with Pirates: the current Mark of Sleep)
- for an attached action: ``DISCARD self`` (it goes to its owner's discard pile; gone already:
  nothing), ``SEL_HOST`` (the minion it is attached to becomes the selection, for ``DESTROY``
  ...), ``REDUCE_BREAKPOINT here N`` (its base's breakpoint is N lower until the end of the turn)
- ``REDUCE_BREAKPOINT sel_base sel_power``: the base of the first selected minion has its
  breakpoint lower by that minion's power now, until the end of the turn (Rampage)
- in ``after_played``: ``SEL_PLAYED`` (the minion just played becomes the selection),
  ``DISCARD played choice`` (its controller discards a card of their choice)
- for a minion card: ``SEL_SELF`` (the card itself becomes the selection), ``MOVE_SELF mode=may
  rule=PLACE`` (you may move it to another base it may go to; the baseline's by PLACE),
  ``MOVE_SELF to=base`` (it moves to the chosen base: Pirate King's Special), ``SEL_BASE here``
  (its own base becomes the chosen base, kept after it leaves: Ninja Acolyte's talent)
- in a ``special`` with ``window = "hand ..."``: ``PLAY_SELF`` (the card itself from your hand,
  at once and using no play: a minion onto the chosen base, an action played)
- ``IF cond [N]``: the program ends here unless the condition holds (conditions below);
  ``IF not cond [N]``: unless it fails (``MAY not cond`` likewise)
- ``SEL_MINION`` with ``where=any|here|base|sel_base`` (here: the card's base; base: the one
  chosen by SEL_BASE or the FOR loop's; sel_base: that of the minion selected before, which the
  new selection replaces), ``who=any|mine|theirs``,
  a test ``power<=N``, ``power<N``, ``printed<=N``, ``power<mine_here`` (fewer than your
  minions on the card's base), ``power<sel_power`` (less than the minion selected before),
  ``top_power`` (of the minions the rest admits, those of the highest power) or
  ``lowest_if_mixed`` (on a base whose minions' powers differ, those of the lowest power),
  ``legal=none|affect|destroy``, ``mode=one|may|up_to:N|each|each_may``
  (one: a mandatory choice; may: up to 1, None declines; each: every candidate, no choice;
  each_may: a yes/no per candidate in list order),
  ``rule=HIT|HELP|STRONGEST_THEIRS|HIGHEST_PRINTED|HIT_ELSEWHERE|SPARE_SPECIALS|YES`` (the
  baseline's choice, smash-up-cards.md §1.11; the highest printed power, the first on ties; HIT
  among the candidates not "here"; the lowest printed power among those without an
  after-scoring ability, else among all; YES for each_may; none for ``each``) or a card's own
  rule (``kernel/choosers.py``: ``SACRIFICE``, ``AUGMENTATION``, ``RAMPAGE``, ``NS_MINE``,
  ``POWDERKEG``), and the flags
  ``not_same_name``, ``sel_first`` (the minion selected before, if admitted, first) and
  ``append`` (the choice joins the selection so far: a loop's picks, destroyed together)
- ``DESTROY`` (the selection, together), ``RETURN`` (to their owners' hands), ``BOTTOM``
  (to the bottom of their owners' decks), ``POWER_TEMP N`` (+N power until the end of the turn),
  ``COUNTERS N`` (N +1 power counters each, while it stays in play)
- ``REVEAL me``: the top card of your deck (refilled first) becomes the selection; with no card
  the program ends
- ``SEL_CARD`` with ``pile=discard|hand|hand_of_chosen|deck|revealed|actions_here|actions_on_host|actions_in_play``
  (your discard pile, your hand (the card itself too, once returned there), the chosen player's
  hand, your deck from the top, rebuilt first when empty, the revealed cards, the actions on the
  card's base but not on minions there [D22], the other actions on the minion it attached to, or
  every action in play: on bases in slot order, then on minions in board order),
  ``kind=any|minion|action|microbot``, ``printed<=N``, ``legal=allowed`` (playable on the chosen
  base), ``by_name`` (one card per name, the first met, listed in data order),
  ``mode=one|may|up_to:N|any_number|each_may`` (each_may: a yes/no per card in pile order) and
  ``rule=BEST_PRINTED|YES|PREFER|THEIRS`` or a card's own rule (``kernel/choosers.py``:
  ``GRAVE_ROBBING``, ``DISENCHANT``); PREFER takes the first card with the earliest name of the
  ``NAMES Card, Card, ...`` step that must follow it, else the first card; THEIRS the first card
  of another player, else none (the first under mode=one). ``TO_PILE hand|deck|discard`` moves
  the selected cards to your hand, the top of your deck, or their owner's discard pile
- ``SEL_PLAYER others rule=OPPONENT`` (most VP, the next in turn order on ties)
- ``SEL_BASE legal=allowed mode=may rule=PLACE``: a base the selected minion card may be played
  on, or None (the program ends); ``PLAY_MINION`` plays the selected card there at once (none
  selected: the program ends). ``PLAY_ACTION [alt=hand] mode=may|one rule=WANT``: you may play
  the selected action card at once as an extra action, from your deck (``REVEAL me``,
  ``SEL_CARD pile=deck``) or your hand (``SEL_CARD pile=hand``); ``alt=hand`` offers to
  put it into your hand instead (listed first), ``mode=may`` to decline (listed last: it stays
  where it is). The options are in that order, "play" only while you may play it now. The
  baseline plays it when it would play the card from its hand (the card's want); else it puts
  it into your hand, else declines, else (mode=one, no alt) plays it (Neophyte).
  ``SEL_BASE scoring``: the base about to score (in a before-scoring window; outside one the
  program ends).
  ``SEL_BASE legal=any mode=one rule=MOST_MINE``: any base, the baseline's the one with most
  of your minions (the lower slot on ties); ``rule=CROP_CIRCLES``: the one where returning the
  minions the card may affect takes most power from others, less yours (``kernel/choosers.py``)
- ``MAY cond [N]``: options yes and None (the program ends); the baseline says yes when the
  condition holds; ``MAY cond [N] skip=K``: None skips the next K steps instead of ending
- ``MOVE`` with ``who``, ``legal`` and ``mode`` as SEL_MINION (``up_to:N`` and ``any_number``
  move each minion at most once) and ``rule=BEST_MOVE|HIT_TO_GAP|SAIL|INVASION``: one choice over
  (minion, base) pairs, minions in board order and each one's legal bases in slot order;
  BEST_MOVE the move raising V most, HIT_TO_GAP the minion HIT picks, to the base with the
  largest gap, SAIL (Full Sail) while a base scores in or out of it as its Special's default
  (``baseline.sail_default``), else BEST_MOVE; INVASION Invasion's own (``kernel/choosers.py``:
  by V, a HIT target to the largest gap or your minion by PLACE). In a base's program only (a
  card's MOVE lists minions on every base): ``where=here`` (the minions on the base, to another), ``to_here``
  (minions on other bases, onto it) or ``out_or_in`` (the moves out of it, then those onto it,
  each in the order above), ``legal=none``, and the rules ``STRONGEST_BY_PLACE`` (your
  highest-power minion here, the earliest in play on ties, to the base PLACE picks; The Grey
  Opal), ``FREE_STRONGEST`` (the highest-power minion whose leaving costs you no VP where it
  is; Tortuga) and ``PUSH_OUT`` (when an opponent outranks you here, their strongest minion
  here to the base with the largest gap; Mushroom Kingdom)
- ``TAKE_NAMED pile=deck|discard [kind=minion] to=hand|discard rule=CRAWL|BULLETS``: you name
  a card of your pile (of minions only with kind=minion; the deck rebuilt first when empty),
  then take any number of its copies (the baseline: all) to your hand or discard pile; nothing
  to name ends the program. The rules (``kernel/choosers.py``): CRAWL (Mall Crawl: the minion
  name of most copies, then Tenacious Z, then the highest printed power; without minions the
  action of most copies), BULLETS (Not Enough Bullets: most copies x printed power)
- ``TAKE_TOP me N``: up to N cards off the top of your deck (rebuilt on the way [D17]) become
  the card's revealed cards, in no pile; ``SEL_CARD pile=revealed`` chooses among them and
  ``TO_PILE`` moves the chosen; ``RESTACK`` puts the rest back on top, one pick at a time (the
  first picked on top; the baseline keeps the revealed order)
- ``FOR bases_none_mine`` ... ``NEXT``: the steps between run once per base that had no minion
  of yours when the loop started, in the order you pick (key ``Zombie Lord: base``; the
  baseline's: slot order; bases gone since are skipped), with that base as the
  chosen base (``legal=allowed``, ``PLAY_MINION``, ``where=base``); ``FOR bases``: every base in
  play when the loop started; ``FOR others``: the other players in turn order after you, each
  the chosen player in turn (``MARK chosen ...``) while you stay "me"; loops do not nest. In a
  base's program,
  ``FOR winners`` (the players in first place), ``FOR players_here`` (those with a minion on
  the base), ``FOR players`` (all), ``FOR non_winners`` (those not in first place) and ``FOR
  runners_up`` (those second when the base scored: after_scoring and after_replaced only),
  each listed when the loop starts, in turn order from the current player: the steps between
  run once per listed player as "me"
- ``IF cond [N] skip=K``: when the condition fails, skip the next K steps instead of ending

Static abilities (``static = [...]``):

- ``HOST_POWER N``: the minion this action is attached to has +N power (may be negative)
- ``PER_NAME_HERE N``: +N power for each minion of this name on its base, itself included (one
  such name per card list: the kernel counts them once per base)
- ``INDESTRUCTIBLE``: cannot be destroyed; ``MICROBOT``: a Microbot wherever it is
- ``PROTECT host|mine_here from=cards|actions``: other players' cards (or actions) cannot affect
  the host minion (or its controller's minions on its base)

A play-on action's host, the baseline's choice of the minion or base it is played on
(``host = "RULE"``, which every play-on action has; ``kernel/hosts.py``). On a minion:
``HELP`` (HELP; no minion of yours: the first), ``HELP_W`` (HELP, else the lowest-power
minion), ``HIT_M`` (HIT, with the [D9] fallback to your lowest-power minion), ``HIT_UNSCORED``
(HIT among the destroyable minions on bases short of their breakpoint, else HIT_M). On a base
(ties: the lower slot): ``LEAD_GAP``, ``BEHIND_GAP``, ``OPP_ABILITY_GAP`` (the smallest gap
among the bases where you lead, where another player has more power, or whose active ability
favours an opponent; among all bases if none is), ``LEAD_MOST`` (where you lead by most),
``MOST_MY_POWER`` (most of your power; ties: the smaller gap), ``MOST_THEIR_POWER`` (most power
of the other players together), ``PLACE_FROM_HAND`` and ``PLACE_FROM_DISCARD_HAND`` (where
PLACE would play your highest-printed minion card from hand, or from your discard pile first,
among the bases it may go to; else the smallest gap), ``THEIR_ACTION`` (the first base
carrying another player's action, else the first base).

Conditions (for ``IF``, ``want`` and ``usable``): ``ALWAYS``, ``NEVER``, ``FIRST_MINION`` (no
other minion played this turn), ``PHASE_NO_MINION`` (no minion played yet in this Play Cards
phase), ``HAS_HIT`` (the rule HIT finds another player's minion among the first
selection's candidates), ``HAND_LE N`` (at most N other cards in hand), ``HAND_HAS_MINION``,
``HAND_HAS_MINION_PRINTED_LE N`` (a minion card of printed power <= N in hand), ``HAND_MOST``
(more cards in hand than every other player [D32]), ``HAND_GT_SOMEONE`` (more than at least one),
``DISCARD_HAS_MINION``, ``MINION_PLAY_USEFUL`` (two minions in hand, or one and no minion play
left), ``HAS_BEST_MOVE`` (some move of the first MOVE raises V), ``HAS_OPTIONS`` (the first
selection or MOVE has a candidate), ``V_RISES`` (the first selection's POWER_TEMP would raise V),
``DISCARD_GT_DECK`` (more cards in your discard pile than in your deck), ``DECK_HAS_ACTION``
(your deck holds an action card; an empty deck: your discard pile, which a search rebuilds it
from), ``MOST_MINE_GE N`` (the base with most of your minions holds N or more); in a program
after a selection (never in a want), ``SELECTED`` (something was chosen), ``SEL_IS_MINION`` (the
first selected card is a minion card), ``SEL_IS_ACTION`` (an action card; Pixie is both),
``SEL_MINION_PRINTED_LE N``; and, for a card in play
(never in a want), ``ATTACHED_THIS_TURN`` (an action attached in this turn),
``ALONE_FIRST_HERE`` (you alone have the most power on its base), ``UNUSED_THIS_TURN`` and
``MINION_PLAYABLE_HERE`` (the card itself, or a minion card in your hand, could be played on its
base: Ninja Acolyte [D37]); in
``after_played``, of the minion just played: ``PLAYED_BY_OTHER`` (by another player),
``PLAYED_ON_BASE`` (on this card's base), ``PLAYED_HERE`` (in play on this card's base now),
``PLAYED_WEAKER`` (less power than this card), ``PLAYED_DESTROYABLE`` (in play, and this card
may destroy it).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from balance.core.errors import BalanceError

from .kernel import opcodes as oc
from .kernel.layout import (
    C_STEGO, G_ANY, G_AT, G_DISC, G_EMPTY, G_TWO, H_ACTION, H_AFTER_DESTROYED, H_AFTER_DISCARDED, H_AFTER_PLAYED,
    H_AFTER_REPLACED, H_AFTER_SCORING, H_ATTACH, H_END, H_ON_PLAY, H_SPECIAL, H_START, H_TALENT, N_HOOKS,
)
from .kernel.names import card_code
from .kernel.tables import PLAY_ON, PLAYON_BASE
from .rules import SWITCHES

DATA = Path(__file__).parent / "data" / "effects"
HOOKS = {"on_play": H_ON_PLAY, "action": H_ACTION, "on_attach": H_ATTACH, "talent": H_TALENT,
         "start": H_START, "end": H_END, "after_played": H_AFTER_PLAYED,
         "after_scoring": H_AFTER_SCORING, "after_destroyed": H_AFTER_DESTROYED,
         "after_discarded": H_AFTER_DISCARDED, "special": H_SPECIAL}
REFERENCE_TABLES = {"on_play": "ON_PLAY", "action": "ACTION", "on_attach": "ATTACH", "talent": "TALENT",
                    "start": "START", "end": "END", "after_played": "AFTER_PLAYED", "after_scoring": "AFTER",
                    "after_destroyed": "AFTER_DESTROYED", "after_discarded": "AFTER_DISCARDED", "want": "WANT",
                    "special": "BEFORE"}
GRANTS = {"any": G_ANY, "power<=2": G_TWO, "empty": G_EMPTY, "discard": G_DISC, "here": G_AT}
CONDITIONS = {"ALWAYS": oc.COND_ALWAYS, "NEVER": oc.COND_NEVER, "FIRST_MINION": oc.COND_FIRST_MINION,
              "HAS_HIT": oc.COND_HAS_HIT, "HAND_LE": oc.COND_HAND_LE,
              "HAND_HAS_MINION": oc.COND_HAND_HAS_MINION, "DISCARD_HAS_MINION": oc.COND_DISCARD_HAS_MINION,
              "MINION_PLAY_USEFUL": oc.COND_MINION_PLAY_USEFUL, "HAS_BEST_MOVE": oc.COND_HAS_BEST_MOVE,
              "HAS_OPTIONS": oc.COND_HAS_OPTIONS, "V_RISES": oc.COND_V_RISES,
              "DISCARD_GT_DECK": oc.COND_DISCARD_GT_DECK, "SELECTED": oc.COND_SELECTED,
              "SEL_IS_MINION": oc.COND_SEL_IS_MINION, "SEL_MINION_PRINTED_LE": oc.COND_SEL_MINION_PRINTED_LE,
              "DECK_HAS_ACTION": oc.COND_DECK_HAS_ACTION, "MOST_MINE_GE": oc.COND_MOST_MINE_GE,
              "ATTACHED_THIS_TURN": oc.COND_ATTACHED_THIS_TURN, "ALONE_FIRST_HERE": oc.COND_ALONE_FIRST_HERE,
              "UNUSED_THIS_TURN": oc.COND_UNUSED_THIS_TURN, "PLAYED_BY_OTHER": oc.COND_PLAYED_BY_OTHER,
              "PLAYED_ON_BASE": oc.COND_PLAYED_ON_BASE, "PLAYED_HERE": oc.COND_PLAYED_HERE,
              "PLAYED_WEAKER": oc.COND_PLAYED_WEAKER, "PLAYED_DESTROYABLE": oc.COND_PLAYED_DESTROYABLE,
              "HAND_HAS_MINION_PRINTED_LE": oc.COND_HAND_HAS_MINION_PRINTED_LE, "HAND_MOST": oc.COND_HAND_MOST,
              "HAND_GT_SOMEONE": oc.COND_HAND_GT_SOMEONE, "PHASE_NO_MINION": oc.COND_PHASE_NO_MINION,
              "MINION_PLAYABLE_HERE": oc.COND_MINION_PLAYABLE_HERE, "SEL_IS_ACTION": oc.COND_SEL_IS_ACTION}
# the conditions that read the first selection (SEL_MINION or MOVE) of the card's action: the
# opcodes it may be
READS_SELECTION = {oc.COND_HAS_HIT: (oc.OP_SEL_MINION,), oc.COND_HAS_BEST_MOVE: (oc.OP_MOVE,),
                   oc.COND_HAS_OPTIONS: (oc.OP_SEL_MINION, oc.OP_MOVE), oc.COND_V_RISES: (oc.OP_SEL_MINION,)}
WITH_NUMBER = {"HAND_LE", "SEL_MINION_PRINTED_LE", "MOST_MINE_GE", "HAND_HAS_MINION_PRINTED_LE"}
SELECTOR = {
    "where": {"any": oc.WHERE_ANY, "here": oc.WHERE_HERE, "base": oc.WHERE_BASE, "sel_base": oc.WHERE_SEL_BASE},
    "who": {"any": oc.OWNER_ANY, "mine": oc.OWNER_MINE, "theirs": oc.OWNER_THEIRS},
    "legal": {"none": oc.LEGAL_NONE, "affect": oc.LEGAL_AFFECT, "destroy": oc.LEGAL_DESTROY},
    "rule": {"HIT": oc.RULE_HIT, "STRONGEST_THEIRS": oc.RULE_STRONGEST_THEIRS,
             "HIGHEST_PRINTED": oc.RULE_HIGHEST_PRINTED, "HIT_ELSEWHERE": oc.RULE_HIT_ELSEWHERE,
             "SPARE_SPECIALS": oc.RULE_SPARE_SPECIALS, "SACRIFICE": oc.RULE_SACRIFICE,
             "AUGMENTATION": oc.RULE_AUGMENTATION, "RAMPAGE": oc.RULE_RAMPAGE, "NS_MINE": oc.RULE_NS_MINE,
             "POWDERKEG": oc.RULE_POWDERKEG, "HELP": oc.RULE_HELP, "YES": oc.RULE_YES},
}
# MOVE's where and the rules that read "here" as a base: in a base's program only (a card's
# MOVE lists minions on every base)
BASE_MOVE_RULES = {"STRONGEST_BY_PLACE": oc.RULE_STRONGEST_BY_PLACE, "FREE_STRONGEST": oc.RULE_FREE_STRONGEST,
                   "PUSH_OUT": oc.RULE_PUSH_OUT}
MOVE_RULES = {"BEST_MOVE": oc.RULE_BEST_MOVE, "HIT_TO_GAP": oc.RULE_HIT_TO_GAP, "SAIL": oc.RULE_SAIL,
              "INVASION": oc.RULE_INVASION, **BASE_MOVE_RULES}
TAKE_NAMED = {"pile": {"deck": oc.PILE_DECK, "discard": oc.PILE_DISCARD}, "kind": {"any": oc.KIND_ANY,
              "minion": oc.KIND_MINION}, "to": {"hand": oc.TO_HAND, "discard": oc.TO_DISCARD},
              "rule": {"CRAWL": oc.RULE_CRAWL, "BULLETS": oc.RULE_BULLETS}}
SELECTOR_FLAGS = {"not_same_name": oc.FLAG_NOT_SAME_NAME, "sel_first": oc.FLAG_SEL_FIRST, "append": oc.FLAG_APPEND}
ANY_BASE_RULES = {"MOST_MINE": oc.RULE_MOST_MINE, "CROP_CIRCLES": oc.RULE_CROP_CIRCLES}  # SEL_BASE legal=any's
MOVE_WHERE = {"any": oc.WHERE_ANY, "here": oc.WHERE_HERE, "to_here": oc.WHERE_TO_HERE,
              "out_or_in": oc.WHERE_OUT_OR_IN}
CARD_SELECTOR = {
    "pile": {"discard": oc.PILE_DISCARD, "hand_of_chosen": oc.PILE_HAND_OF_CHOSEN, "deck": oc.PILE_DECK,
             "revealed": oc.PILE_REVEALED, "actions_here": oc.PILE_ACTIONS_HERE,
             "actions_on_host": oc.PILE_ACTIONS_ON_HOST, "actions_in_play": oc.PILE_ACTIONS_IN_PLAY,
             "hand": oc.PILE_HAND},
    "kind": {"any": oc.KIND_ANY, "minion": oc.KIND_MINION, "action": oc.KIND_ACTION,
             "microbot": oc.KIND_MICROBOT},
    "legal": {"allowed": oc.LEGAL_ALLOWED},
    "rule": {"BEST_PRINTED": oc.RULE_BEST_PRINTED, "YES": oc.RULE_YES, "PREFER": oc.RULE_PREFER,
             "THEIRS": oc.RULE_THEIRS, "GRAVE_ROBBING": oc.RULE_GRAVE_ROBBING, "DISENCHANT": oc.RULE_DISENCHANT,
             "THEIRS_OUTRANKED": oc.RULE_THEIRS_OUTRANKED},
}
ANY_NUMBER = 1 << 30  # mode=any_number: up to as many as there are
FOR_LISTS = {"bases_none_mine": oc.FOR_BASES_NONE_MINE, "bases": oc.FOR_BASES, "others": oc.FOR_OTHERS,
             "winners": oc.FOR_WINNERS,
             "players_here": oc.FOR_PLAYERS_HERE, "players": oc.FOR_PLAYERS, "non_winners": oc.FOR_NON_WINNERS,
             "runners_up": oc.FOR_RUNNERS_UP}
# a base's players: its programs only
BASE_FOR_LISTS = (oc.FOR_WINNERS, oc.FOR_PLAYERS_HERE, oc.FOR_PLAYERS, oc.FOR_NON_WINNERS, oc.FOR_RUNNERS_UP)
PILES = {"hand": oc.TO_HAND, "deck": oc.TO_DECK, "discard": oc.TO_DISCARD}
TESTS = {"power<=": oc.TEST_POWER_LE, "power<": oc.TEST_POWER_LT, "printed<=": oc.TEST_PRINTED_LE}
OPCODES = ("DRAW", "GAIN_VP", "DISCARD", "DECK_OPS", "GRANT_MINION", "GRANT_ACTION", "MARK", "IF",
           "MAY", "SEL_MINION", "DESTROY", "RETURN", "BOTTOM", "POWER_TEMP", "MOVE", "REVEAL",
           "SEL_CARD", "TO_PILE", "SEL_PLAYER", "SEL_BASE", "PLAY_MINION", "FOR", "NEXT", "TAKE_TOP",
           "RESTACK", "NAMES", "SEL_HOST", "REDUCE_BREAKPOINT", "SEL_PLAYED", "SEL_SELF", "MOVE_SELF", "TAKE_NAMED",
           "COUNTERS", "PLAY_SELF", "PLAY_ACTION")
# a card's ``window`` (its before-scoring Special; opcodes.WINDOW_*): where it offers it from, then
# its limits
WINDOW_SOURCES = {"hand": oc.WINDOW_HAND, "elsewhere": oc.WINDOW_ELSEWHERE, "here": oc.WINDOW_HERE}
WINDOW_LIMITS = {"once_per_player": oc.WINDOW_ONCE_PER_PLAYER, "only": oc.WINDOW_ONLY,
                 "once_per_card": oc.WINDOW_ONCE_PER_CARD, "each_target": oc.WINDOW_EACH_TARGET}
# steps for a Special only, and the window source they need: PLAY_SELF plays the card from your hand
SPECIAL_STEPS = {oc.OP_PLAY_SELF: oc.WINDOW_HAND}


STATICS = ("HOST_POWER", "PER_NAME_HERE", "INDESTRUCTIBLE", "MICROBOT", "PROTECT")
PROTECTIONS = {("host", "cards"): oc.PROT_CARDS_HOST, ("host", "actions"): oc.PROT_ACTIONS_HOST,
               ("mine_here", "actions"): oc.PROT_ACTIONS_MINE_HERE}
MINION_HOST_RULES = {"HELP": oc.HOST_HELP, "HELP_W": oc.HOST_HELP_W, "HIT_M": oc.HOST_HIT_M,
                     "HIT_UNSCORED": oc.HOST_HIT_UNSCORED}
BASE_HOST_RULES = {"LEAD_GAP": oc.HOST_LEAD_GAP, "BEHIND_GAP": oc.HOST_BEHIND_GAP,
                   "OPP_ABILITY_GAP": oc.HOST_OPP_ABILITY_GAP, "LEAD_MOST": oc.HOST_LEAD_MOST,
                   "MOST_MY_POWER": oc.HOST_MOST_MY_POWER, "MOST_THEIR_POWER": oc.HOST_MOST_THEIR_POWER,
                   "PLACE_FROM_HAND": oc.HOST_PLACE_FROM_HAND,
                   "PLACE_FROM_DISCARD_HAND": oc.HOST_PLACE_FROM_DISCARD_HAND,
                   "THEIR_ACTION": oc.HOST_THEIR_ACTION}
HOST_RULES = {**MINION_HOST_RULES, **BASE_HOST_RULES}


@dataclass(frozen=True)
class CardEffects:
    """One card's data: a step list per hook name, its want's conditions (None: none given) and
    its static abilities, host rule and Special's window (host power, power per same-named minion
    here, flags, protection, HOST_ rule or 0, WINDOW_ bits or 0)."""

    hooks: dict
    want: tuple | None
    static: tuple = (0,) * 6
    usable: tuple | None = None  # a talent's usable test (conditions; None: its faction module's)


def _static(where: _Where, texts: list[str]) -> tuple:
    """(host power, per-name power, FL_ flags, PROT_ bits) of a card's static abilities."""
    host = per_name = flags = protect = 0
    for text in texts:
        words = text.split()
        if not words or words[0] not in STATICS:
            raise where.error(text, f"unknown static ability; allowed: {', '.join(STATICS)}")
        kind, args = words[0], words[1:]
        if kind in ("HOST_POWER", "PER_NAME_HERE"):
            if len(args) != 1:
                raise where.error(text, f"expected {kind} N")
            if kind == "HOST_POWER":
                host = _number(where, text, args[0])
            else:
                per_name = _number(where, text, args[0])
        elif kind in ("INDESTRUCTIBLE", "MICROBOT"):
            if args:
                raise where.error(text, f"{kind} takes nothing")
            flags |= oc.FL_INDESTRUCTIBLE if kind == "INDESTRUCTIBLE" else oc.FL_MICROBOT
        else:
            key = (args[0], args[1][5:]) if len(args) == 2 and args[1].startswith("from=") else None
            if key not in PROTECTIONS:
                raise where.error(text, "expected PROTECT host from=cards|actions or PROTECT "
                                  "mine_here from=actions")
            protect |= PROTECTIONS[key]
    return host, per_name, flags, protect


class _Where:
    """Where a step came from, for error messages."""

    def __init__(self, source: str, card: str, hook: str):
        self.source, self.card, self.hook = source, card, hook

    def error(self, step: str, message: str) -> BalanceError:
        return BalanceError(f"{self.source}: {self.card!r} {self.hook} step {step!r}: {message}")


def _number(where: _Where, step: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise where.error(step, f"{text!r} is not a whole number") from None


def _selector(where: _Where, step: str, words: list[str], op: int = oc.OP_SEL_MINION) -> list[int]:
    """A SEL_MINION row, or (``op`` OP_MOVE) a MOVE row: its who, legal, mode and rule."""
    rules = SELECTOR["rule"] if op == oc.OP_SEL_MINION else MOVE_RULES
    row = [0] * oc.I_N
    row[oc.I_OP] = op
    row[oc.I_COUNT] = 1
    given = set()
    for word in words:
        if word in SELECTOR_FLAGS and op == oc.OP_SEL_MINION:
            row[oc.I_FLAGS] |= SELECTOR_FLAGS[word]
            continue
        if word in ("top_power", "lowest_if_mixed") and op == oc.OP_SEL_MINION:
            if "test" in given:
                raise where.error(step, "test given twice")
            row[oc.I_TEST] = oc.TEST_TOP_POWER if word == "top_power" else oc.TEST_LOWEST_MIXED
            given.add("test")
            continue
        test = next((t for t in TESTS if word.startswith(t) and word[len(t):]), None) \
            if op == oc.OP_SEL_MINION else None
        if test is not None and "=" not in word[len(test):]:
            key, value = "test", word[len(test):]
            row[oc.I_TEST] = TESTS[test]
            if value in ("mine_here", "sel_power"):
                row[oc.I_VSRC] = oc.VAL_MINE_HERE if value == "mine_here" else oc.VAL_SEL_POWER
            else:
                row[oc.I_VAL] = _number(where, step, value)
        elif "=" in word:
            key, value = word.split("=", 1)
            if key == "mode":
                if value == "one":
                    row[oc.I_MODE] = oc.MODE_ONE
                elif value == "may":
                    row[oc.I_MODE] = oc.MODE_UP_TO
                elif value.startswith("up_to:"):
                    row[oc.I_MODE], row[oc.I_COUNT] = oc.MODE_UP_TO, _number(where, step, value[6:])
                elif value == "any_number":
                    row[oc.I_MODE], row[oc.I_COUNT] = oc.MODE_UP_TO, ANY_NUMBER
                elif value == "each" and op == oc.OP_SEL_MINION:
                    row[oc.I_MODE] = oc.MODE_EACH
                elif value == "each_may" and op == oc.OP_SEL_MINION:
                    row[oc.I_MODE] = oc.MODE_EACH_MAY
                else:
                    raise where.error(step, f"unknown mode {value!r}; allowed: one, may, up_to:N, any_number"
                                      + (", each, each_may" if op == oc.OP_SEL_MINION else ""))
            elif key == "rule":
                if value not in rules:
                    raise where.error(step, f"unknown rule {value!r}; allowed: {', '.join(rules)}")
                row[oc.I_RULE] = rules[value]
            elif key == "where" and op == oc.OP_MOVE:
                if value not in MOVE_WHERE:
                    raise where.error(step, f"unknown where {value!r}; allowed: {', '.join(MOVE_WHERE)}")
                row[oc.I_WHERE] = MOVE_WHERE[value]
            elif key in SELECTOR and (op == oc.OP_SEL_MINION or key in ("who", "legal")):
                if value not in SELECTOR[key]:
                    raise where.error(step, f"unknown {key} {value!r}; allowed: {', '.join(SELECTOR[key])}")
                column = {"where": oc.I_WHERE, "who": oc.I_WHO, "legal": oc.I_LEGAL}[key]
                row[column] = SELECTOR[key][value]
            else:
                raise where.error(step, f"unknown selector field {key!r}; allowed: "
                                  f"{', '.join(['mode', *SELECTOR])}, a test (power<=N, power<N, "
                                  "printed<=N, power<mine_here, power<sel_power, top_power, lowest_if_mixed) or a "
                                  f"flag: {', '.join(SELECTOR_FLAGS)}")
        else:
            raise where.error(step, f"cannot read {word!r}: give key=value, a test or a flag "
                              f"({', '.join(SELECTOR_FLAGS)})")
        if key in given:
            raise where.error(step, f"{key} given twice")
        given.add(key)
    missing = {"mode", "rule"} - given - ({"rule"} if row[oc.I_MODE] == oc.MODE_EACH else set())
    if missing:
        raise where.error(step, f"give {' and '.join(sorted(missing))}")
    return row


def _keyed(where: _Where, step: str, words: list[str], fields: dict, required: set) -> dict:
    """``key=value`` words, each key one of ``fields`` (key -> value -> number) or ``mode``,
    at most once; the keys in ``required`` given."""
    out = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq:
            raise where.error(step, f"cannot read {word!r}: give key=value")
        if key not in fields:
            raise where.error(step, f"unknown field {key!r}; allowed: {', '.join(fields)}")
        if value not in fields[key]:
            raise where.error(step, f"unknown {key} {value!r}; allowed: {', '.join(fields[key])}")
        if key in out:
            raise where.error(step, f"{key} given twice")
        out[key] = fields[key][value]
    missing = required - set(out)
    if missing:
        raise where.error(step, f"give {' and '.join(sorted(missing))}")
    return out


def _card_selector(where: _Where, step: str, words: list[str]) -> list[int]:
    modes = {"one": (oc.MODE_ONE, 1), "may": (oc.MODE_UP_TO, 1), "each_may": (oc.MODE_EACH_MAY, 1),
             "any_number": (oc.MODE_UP_TO, ANY_NUMBER)}
    modes.update({w[5:]: (oc.MODE_UP_TO, _number(where, step, w[11:])) for w in words
                  if w.startswith("mode=up_to:")})
    row = [0] * oc.I_N
    keyed = []
    for word in words:
        if word == "by_name":
            row[oc.I_FLAGS] |= oc.CARD_BY_NAME
        elif word.startswith("printed<="):
            row[oc.I_FLAGS] |= oc.CARD_PRINTED_LE
            row[oc.I_VAL] = _number(where, step, word[9:])
        else:
            keyed.append(word)
    given = _keyed(where, step, keyed, {**CARD_SELECTOR, "mode": modes}, {"pile", "mode", "rule"})
    row[oc.I_OP], row[oc.I_WHERE] = oc.OP_SEL_CARD, given["pile"]
    row[oc.I_TEST], row[oc.I_LEGAL] = given.get("kind", oc.KIND_ANY), given.get("legal", oc.LEGAL_NONE)
    (row[oc.I_MODE], row[oc.I_COUNT]), row[oc.I_RULE] = given["mode"], given["rule"]
    return row


def _condition(where: _Where, step: str, words: list[str], skip: bool = False) -> list[int]:
    """An OP_IF row; with ``skip`` (an IF step) a last word ``skip=K`` goes to I_ARG3; a first
    word ``not`` negates the condition (I_NOT)."""
    rows_skipped = 0
    negated = bool(words) and words[0] == "not"
    if negated:
        words = words[1:]
    if skip and words and words[-1].startswith("skip="):
        rows_skipped = _number(where, step, words[-1][5:])
        if rows_skipped < 1:
            raise where.error(step, "skip=K needs K >= 1 (without it a failed IF ends the program)")
        words = words[:-1]
    if not words or words[0] not in CONDITIONS:
        raise where.error(step, f"unknown condition; allowed: {', '.join(CONDITIONS)}")
    need = 2 if words[0] in WITH_NUMBER else 1
    if len(words) != need:
        raise where.error(step, f"{words[0]} takes {need - 1} number(s)")
    row = [0] * oc.I_N
    row[oc.I_OP], row[oc.I_ARG1], row[oc.I_ARG3] = oc.OP_IF, CONDITIONS[words[0]], rows_skipped
    row[oc.I_NOT] = int(negated)
    if need == 2:
        row[oc.I_ARG2] = _number(where, step, words[1])
    return row


def _step(where: _Where, step: str) -> list[int]:
    """One step's row (``kernel/opcodes.py``)."""
    words = step.split()
    if not words or words[0] not in OPCODES:
        raise where.error(step, f"unknown opcode; allowed: {', '.join(OPCODES)}")
    op, args = words[0], words[1:]
    row = [0] * oc.I_N

    def expect(*shape):
        if len(args) != len(shape) or any(s is not None and a != s for a, s in zip(args, shape)):
            raise where.error(step, f"expected {op} {' '.join(s or 'N' for s in shape)}")

    if op == "DRAW" and args == ["me", "mine_at_base"]:
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_DRAW, oc.DRAW_MINE_AT_BASE
    elif op == "DRAW" and args == ["me", "sel_power"]:
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_DRAW, oc.DRAW_SEL_POWER
    elif op == "DRAW" or op == "GAIN_VP":
        expect("me", None)
        row[oc.I_OP] = oc.OP_DRAW if op == "DRAW" else oc.OP_GAIN_VP
        row[oc.I_ARG2] = _number(where, step, args[1])
    elif op == "DISCARD" and args == ["self"]:
        row[oc.I_OP] = oc.OP_DISCARD_SELF
    elif op == "DISCARD" and args == ["played", "choice"]:
        row[oc.I_OP] = oc.OP_DISCARD_CHOICE_PLAYED
    elif op == "DISCARD" and args == ["me", "hand"]:
        row[oc.I_OP] = oc.OP_DISCARD_HAND
    elif op == "DISCARD":
        if len(args) != 3 or args[:2] != ["others", "random"]:
            raise where.error(step, "expected DISCARD others random N, DISCARD self, DISCARD played choice "
                              "or DISCARD me hand")
        row[oc.I_OP], row[oc.I_ARG2] = oc.OP_DISCARD_RANDOM, _number(where, step, args[2])
    elif op == "DECK_OPS":
        if len(args) != 2 or args[0] != "me" or args[1] not in ("hand_to_deck", "shuffle"):
            raise where.error(step, "expected DECK_OPS me hand_to_deck|shuffle")
        row[oc.I_OP] = oc.OP_HAND_TO_DECK if args[1] == "hand_to_deck" else oc.OP_SHUFFLE
    elif op == "GRANT_MINION":
        if len(args) != 1 or args[0] not in GRANTS:
            raise where.error(step, f"expected GRANT_MINION {'|'.join(GRANTS)}")
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_GRANT_MINION, GRANTS[args[0]]
    elif op == "GRANT_ACTION":
        expect(None)
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_GRANT_ACTION, _number(where, step, args[0])
    elif op == "MARK" and args[:2] == ["chosen", "sleep"] and args[2:] in ([], ["choice"]):
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_SLEEP, oc.SLEEP_CHOICE if args[2:] else oc.SLEEP_ACTIONS_ONLY
    elif op == "MARK" and args == ["self", "used"]:
        row[oc.I_OP] = oc.OP_MARK_USED
    elif op == "MARK":
        if args != ["self", "stego"]:
            raise where.error(step, "expected MARK self stego, MARK self used, MARK chosen sleep or MARK chosen "
                              "sleep choice")
        row[oc.I_OP], row[oc.I_ARG1], row[oc.I_ARG2] = oc.OP_MARK, C_STEGO, 1
    elif op == "POWER_TEMP" or op == "COUNTERS":
        expect(None)
        row[oc.I_OP] = oc.OP_POWER_TEMP if op == "POWER_TEMP" else oc.OP_COUNTERS
        row[oc.I_ARG1] = _number(where, step, args[0])
    elif op == "MOVE":
        row = _selector(where, step, args, oc.OP_MOVE)
    elif op == "IF" or op == "MAY":
        row = _condition(where, step, args, skip=True)
        row[oc.I_OP] = oc.OP_IF if op == "IF" else oc.OP_MAY
    elif op == "FOR":
        if len(args) != 1 or args[0] not in FOR_LISTS:
            raise where.error(step, f"expected FOR {'|'.join(FOR_LISTS)}")
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_FOR, FOR_LISTS[args[0]]  # I_ARG2: _link_loops
    elif op == "NEXT":
        expect()
        row[oc.I_OP] = oc.OP_NEXT
    elif op == "TAKE_TOP":
        expect("me", None)
        n = _number(where, step, args[1])
        if not 1 <= n <= oc.MAX_REVEAL:
            raise where.error(step, f"takes 1 to {oc.MAX_REVEAL} cards")
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_TAKE_TOP, n
    elif op == "RESTACK":
        expect()
        row[oc.I_OP] = oc.OP_RESTACK
    elif op == "TAKE_NAMED":
        given = _keyed(where, step, args, TAKE_NAMED, {"pile", "to", "rule"})
        row[oc.I_OP], row[oc.I_WHERE], row[oc.I_VAL] = oc.OP_TAKE_NAMED, given["pile"], given["to"]
        row[oc.I_TEST], row[oc.I_RULE] = given.get("kind", oc.KIND_ANY), given["rule"]
    elif op == "NAMES":
        names = [n.strip() for n in step.split(None, 1)[1].split(",")] if args else []
        if not names or not all(names) or len(names) > oc.I_N - 1:
            raise where.error(step, f"expected NAMES Card, Card, ... (1 to {oc.I_N - 1} names)")
        row[oc.I_OP] = oc.OP_NAMES
        for j, name in enumerate(names, 1):
            try:
                row[j] = card_code(name)
            except ValueError:
                raise where.error(step, f"no card named {name!r}") from None
        row[len(names) + 1:] = [-1] * (oc.I_N - 1 - len(names))
    elif op == "REVEAL":
        expect("me")
        row[oc.I_OP] = oc.OP_REVEAL
    elif op == "SEL_CARD":
        row = _card_selector(where, step, args)
    elif op == "TO_PILE":
        if len(args) != 1 or args[0] not in PILES:
            raise where.error(step, f"expected TO_PILE {'|'.join(PILES)}")
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_TO_PILE, PILES[args[0]]
    elif op == "SEL_PLAYER":
        expect("others", "rule=OPPONENT")
        row[oc.I_OP] = oc.OP_SEL_PLAYER
    elif op == "SEL_BASE" and args in (["scoring"], ["here"]):
        row[oc.I_OP], row[oc.I_RULE] = oc.OP_SEL_BASE, oc.RULE_SCORING if args == ["scoring"] else oc.RULE_HERE
    elif op == "SEL_BASE":  # the forms the cards need (kernel.effects.choose_base, any_base)
        if args[:2] == ["legal=any", "mode=one"] and len(args) == 3 and args[2][5:] in ANY_BASE_RULES:
            row[oc.I_OP], row[oc.I_RULE] = oc.OP_SEL_BASE, ANY_BASE_RULES[args[2][5:]]
        else:
            if args != ["legal=allowed", "mode=may", "rule=PLACE"]:
                raise where.error(step, "expected SEL_BASE legal=allowed mode=may rule=PLACE, SEL_BASE "
                                  f"legal=any mode=one rule={'|'.join(ANY_BASE_RULES)}, SEL_BASE scoring or "
                                  "SEL_BASE here")
            row[oc.I_OP], row[oc.I_RULE] = oc.OP_SEL_BASE, oc.RULE_PLACE
    elif op == "PLAY_MINION":
        expect()
        row[oc.I_OP] = oc.OP_PLAY_MINION
    elif op == "PLAY_ACTION":
        alt = args[:1] == ["alt=hand"]
        if args[alt:] not in (["mode=may", "rule=WANT"], ["mode=one", "rule=WANT"]):
            raise where.error(step, "expected PLAY_ACTION [alt=hand] mode=may|one rule=WANT")
        row[oc.I_OP] = oc.OP_PLAY_ACTION
        row[oc.I_ARG1] = (oc.PLAY_ALT_HAND if alt else 0) | (oc.PLAY_MAY if args[alt] == "mode=may" else 0)
    elif op in ("SEL_HOST", "SEL_PLAYED", "SEL_SELF"):
        expect()
        row[oc.I_OP] = {"SEL_HOST": oc.OP_SEL_HOST, "SEL_PLAYED": oc.OP_SEL_PLAYED, "SEL_SELF": oc.OP_SEL_SELF}[op]
    elif op == "MOVE_SELF" and args == ["to=base"]:
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_MOVE_SELF, oc.MOVE_SELF_TO_BASE
    elif op == "MOVE_SELF":
        if args != ["mode=may", "rule=PLACE"]:
            raise where.error(step, "expected MOVE_SELF mode=may rule=PLACE or MOVE_SELF to=base")
        row[oc.I_OP] = oc.OP_MOVE_SELF
    elif op == "PLAY_SELF":
        expect()
        row[oc.I_OP] = oc.OP_PLAY_SELF
    elif op == "REDUCE_BREAKPOINT" and args == ["sel_base", "sel_power"]:
        row[oc.I_OP], row[oc.I_ARG1] = oc.OP_REDUCE_BREAKPOINT, oc.REDUCE_SEL_POWER
    elif op == "REDUCE_BREAKPOINT":
        if len(args) != 2 or args[0] != "here":
            raise where.error(step, "expected REDUCE_BREAKPOINT here N or REDUCE_BREAKPOINT sel_base sel_power")
        row[oc.I_OP], row[oc.I_ARG2] = oc.OP_REDUCE_BREAKPOINT, _number(where, step, args[1])
    elif op == "SEL_MINION":
        row = _selector(where, step, args)
    else:  # DESTROY, RETURN, BOTTOM act on the selection of minions
        expect()
        row[oc.I_OP] = {"DESTROY": oc.OP_DESTROY, "RETURN": oc.OP_RETURN, "BOTTOM": oc.OP_BOTTOM}[op]
    return row


# what each step needs an earlier step to have made: a minion selection, a card selection (or
# the revealed card), a chosen player, a chosen base
_NEEDS = {oc.OP_DESTROY: ("minions",), oc.OP_RETURN: ("minions",), oc.OP_BOTTOM: ("minions",),
          oc.OP_POWER_TEMP: ("minions",), oc.OP_COUNTERS: ("minions",), oc.OP_TO_PILE: ("cards",),
          oc.OP_SEL_BASE: ("cards",),
          oc.OP_PLAY_MINION: ("cards", "base"), oc.OP_PLAY_ACTION: ("cards",), oc.OP_RESTACK: ("revealed cards",),
          oc.OP_SLEEP: ("player",)}
_MAKES = {oc.OP_SEL_MINION: "minions", oc.OP_SEL_HOST: "minions", oc.OP_SEL_PLAYED: "minions",
          oc.OP_SEL_SELF: "minions",
          oc.OP_REVEAL: "cards", oc.OP_SEL_CARD: "cards", oc.OP_SEL_PLAYER: "player",
          oc.OP_SEL_BASE: "base", oc.OP_FOR: "base", oc.OP_TAKE_TOP: "revealed cards"}
_CARD_PILE_NEEDS = {oc.PILE_HAND_OF_CHOSEN: ("player",), oc.PILE_REVEALED: ("revealed cards",)}


def _needs(row) -> tuple:
    """What a step reads that an earlier step must have made (``_MAKES``)."""
    op = row[oc.I_OP]
    if op == oc.OP_SEL_CARD:
        base = ("base",) if row[oc.I_LEGAL] == oc.LEGAL_ALLOWED else ()
        return _CARD_PILE_NEEDS.get(row[oc.I_WHERE], ()) + base
    if op == oc.OP_SEL_BASE and row[oc.I_RULE] != oc.RULE_PLACE:
        return ()
    if op == oc.OP_SEL_MINION and row[oc.I_WHERE] == oc.WHERE_BASE:
        return ("base",)
    if op == oc.OP_SEL_MINION and (row[oc.I_WHERE] == oc.WHERE_SEL_BASE or row[oc.I_VSRC] == oc.VAL_SEL_POWER
                                   or row[oc.I_FLAGS] & oc.FLAG_SEL_FIRST):
        return ("minions",)
    if op == oc.OP_DRAW and row[oc.I_ARG1] == oc.DRAW_MINE_AT_BASE:
        return ("base",)
    if op == oc.OP_DRAW and row[oc.I_ARG1] == oc.DRAW_SEL_POWER:
        return ("minions",)
    if op == oc.OP_REDUCE_BREAKPOINT and row[oc.I_ARG1] == oc.REDUCE_SEL_POWER:
        return ("minions",)
    if op == oc.OP_MOVE_SELF and row[oc.I_ARG1] == oc.MOVE_SELF_TO_BASE:
        return ("base",)
    if op in (oc.OP_IF, oc.OP_MAY) and row[oc.I_ARG1] in oc.FRAME_CONDITIONS:
        return ("cards",) if row[oc.I_ARG1] != oc.COND_SELECTED else ()
    return _NEEDS.get(op, ())


def _check_order(where: _Where, steps: list[str], rows) -> None:
    made = set()
    revealed_selection = False  # the last card selection is of revealed cards (in no pile)
    actions_selected = False  # ... is known to hold only action cards
    own_pile = False  # ... is of your deck (REVEAL me, SEL_CARD pile=deck) or your hand
    for j, (text, row) in enumerate(zip(steps, rows)):
        op = row[oc.I_OP]
        if _MAKES.get(op) in ("cards", "minions"):  # a new selection
            actions_selected = op == oc.OP_SEL_CARD and row[oc.I_TEST] == oc.KIND_ACTION
            own_pile = op == oc.OP_REVEAL or (op == oc.OP_SEL_CARD and row[oc.I_WHERE] in (oc.PILE_DECK, oc.PILE_HAND))
        if op == oc.OP_IF and row[oc.I_ARG1] == oc.COND_SEL_IS_ACTION and not row[oc.I_NOT] and row[oc.I_ARG3] == 0:
            actions_selected = True  # the program ends unless the selected card is an action
        if op == oc.OP_SEL_CARD:
            if row[oc.I_WHERE] == oc.PILE_REVEALED and row[oc.I_LEGAL] == oc.LEGAL_ALLOWED:
                raise where.error(text, "legal=allowed reads a pile, not the revealed cards")
            prefer = row[oc.I_RULE] == oc.RULE_PREFER
            if prefer != (j + 1 < len(rows) and rows[j + 1][oc.I_OP] == oc.OP_NAMES):
                raise where.error(text, "rule=PREFER and a NAMES step right after it go together")
            revealed_selection = row[oc.I_WHERE] == oc.PILE_REVEALED
        if op == oc.OP_NAMES and (j == 0 or rows[j - 1][oc.I_RULE] != oc.RULE_PREFER
                                  or rows[j - 1][oc.I_OP] != oc.OP_SEL_CARD):
            raise where.error(text, "NAMES must follow a SEL_CARD with rule=PREFER")
        if op in (oc.OP_PLAY_MINION, oc.OP_PLAY_ACTION) and revealed_selection:  # it takes its card from a pile
            raise where.error(text, "plays a card from a pile, not one of the revealed cards")
        if op in (oc.OP_IF, oc.OP_MAY) and j + 1 + row[oc.I_ARG3] > len(rows):
            raise where.error(text, f"skips past the end of the program ({len(rows) - j - 1} steps follow)")
        selected = op in (oc.OP_IF, oc.OP_MAY) and row[oc.I_ARG1] == oc.COND_SELECTED
        if selected and not made & {"cards", "minions"}:
            raise where.error(text, "needs an earlier selection")
        for need in _needs(row):
            if need not in made:
                raise where.error(text, f"needs an earlier step that chooses its {need}")
        if op == oc.OP_PLAY_ACTION and not actions_selected:
            raise where.error(text, "plays the selected card as an action: select with kind=action, or give "
                              "IF SEL_IS_ACTION before it")
        if op == oc.OP_PLAY_ACTION and not own_pile and not revealed_selection:
            raise where.error(text, "plays an action from your deck or your hand: select it with REVEAL me or "
                              "SEL_CARD pile=deck|hand")
        if op in _MAKES:  # FOR others lists players, the other loops bases
            made.add("player" if op == oc.OP_FOR and row[oc.I_ARG1] == oc.FOR_OTHERS else _MAKES[op])


def _link_loops(where: _Where, steps: list[str], rows: list[list[int]]) -> None:
    """Pair each FOR with the NEXT that closes it (no nesting): FOR's I_ARG2 is the offset of its
    NEXT, NEXT's I_ARG1 the offset back to its FOR."""
    open_for = None
    for j, row in enumerate(rows):
        if row[oc.I_OP] == oc.OP_FOR:
            if open_for is not None:
                raise where.error(steps[j], "a FOR inside a FOR: loops do not nest")
            open_for = j
        elif row[oc.I_OP] == oc.OP_NEXT:
            if open_for is None:
                raise where.error(steps[j], "NEXT without a FOR before it")
            rows[open_for][oc.I_ARG2] = rows[j][oc.I_ARG1] = j - open_for
            open_for = None
        elif row[oc.I_OP] in (oc.OP_IF, oc.OP_MAY) and row[oc.I_ARG3] and any(
                r[oc.I_OP] in (oc.OP_FOR, oc.OP_NEXT) for r in rows[j + 1:j + 1 + row[oc.I_ARG3]]):
            raise where.error(steps[j], "skips a FOR or NEXT")
    if open_for is not None:
        raise where.error(steps[open_for], "FOR without a NEXT after it")


IN_PLAY_STEPS = (oc.OP_DISCARD_SELF, oc.OP_SEL_HOST, oc.OP_REDUCE_BREAKPOINT, oc.OP_MARK_USED)


def _reads_card_in_play(row) -> bool:
    """The step reads the card itself in play (``REDUCE_BREAKPOINT sel_base`` reads a selection)."""
    if row[oc.I_OP] == oc.OP_REDUCE_BREAKPOINT:
        return row[oc.I_ARG1] == oc.REDUCE_HERE
    if row[oc.I_OP] == oc.OP_SEL_BASE:
        return row[oc.I_RULE] == oc.RULE_HERE
    return row[oc.I_OP] in IN_PLAY_STEPS or \
        row[oc.I_OP] in (oc.OP_IF, oc.OP_MAY) and row[oc.I_ARG1] in oc.IN_PLAY_CONDITIONS


def _reads_played(row) -> bool:
    """The step reads the minion whose play triggered the card (after_played only)."""
    return row[oc.I_OP] in oc.PLAYED_STEPS or \
        row[oc.I_OP] in (oc.OP_IF, oc.OP_MAY) and row[oc.I_ARG1] in oc.PLAYED_CONDITIONS


def _check_not_in_play(where: _Where, steps: list[str], rows) -> None:
    """An action's effect (it resolves out of play) reads no card in play."""
    for text, row in zip(steps, rows):
        if _reads_card_in_play(row):
            raise where.error(text, "reads the card in play: not in an action's effect (played, not in play)")


def _switched(source: str, name: str, table: dict, switches: frozenset, allowed: tuple) -> dict:
    """``table`` without its ``if`` tables, each of whose keys replace the table's when its
    switch (one of ``allowed``) is in ``switches``."""
    table = dict(table)
    for switch, keys in table.pop("if", {}).items():
        if switch not in allowed:
            raise BalanceError(f"{source}: {name!r} if.{switch}: unknown switch; allowed: {', '.join(allowed)}")
        if switch in switches:
            table.update(keys)
    return table


def _card_effects(source: str, name: str, table: dict, switches: frozenset) -> CardEffects:
    table = _switched(source, name, table, switches, SWITCHES)
    unknown = set(table) - set(HOOKS) - {"want", "usable", "static", "host", "window"}
    if unknown:
        raise BalanceError(f"{source}: {name!r} has {', '.join(sorted(unknown))}; allowed: "
                           f"{', '.join([*HOOKS, 'want', 'usable', 'static', 'host', 'window', 'if'])}")
    window = _window(source, name, table.pop("window", None), "special" in table)
    host = table.pop("host", None)
    if host is not None and host not in HOST_RULES:
        raise BalanceError(f"{source}: {name!r} host = {host!r}: unknown host rule; allowed: "
                           f"{', '.join(HOST_RULES)}")
    for key, value in table.items():
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BalanceError(f"{source}: {name!r} {key} must be a list of strings, e.g. "
                               f"{key} = [\"DRAW me 1\"]; got {value!r}")
    hooks = {}
    for hook in HOOKS:
        if hook in table:
            where = _Where(source, name, hook)
            rows = [_step(where, s) for s in table[hook]]
            if not rows:
                raise BalanceError(f"{source}: {name!r} {hook} has no steps")
            _check_order(where, table[hook], rows)
            _link_loops(where, table[hook], rows)
            if hook in CARD_LEAVES:
                _check_steps(where, table[hook], rows, CARD_LEAF_OPS, CARD_LEAF_CONDITIONS,
                             f"a card's leaf ({hook} runs inside a {CARD_LEAVES[hook]}, with no card frame)")
            if hook == "action":
                _check_not_in_play(where, table[hook], rows)
            for text, row in zip(table[hook], rows):
                need = SPECIAL_STEPS.get(row[oc.I_OP])
                if need is not None and (hook != "special" or not window & need):
                    raise where.error(text, "plays the card itself from your hand: in a special with "
                                      "window = \"hand ...\" only")
                if hook != "after_played" and _reads_played(row):
                    raise where.error(text, "reads the minion just played: in after_played only")
                if row[oc.I_OP] == oc.OP_MOVE and (row[oc.I_WHERE] != oc.WHERE_ANY
                                                   or row[oc.I_RULE] in BASE_MOVE_RULES.values()):
                    raise where.error(text, "a card's MOVE lists minions on every base: where= and the rules "
                                      f"{', '.join(BASE_MOVE_RULES)} are for a base's program (bases.toml)")
            hooks[hook] = tuple(map(tuple, rows))
    want = None
    if "want" in table:
        where = _Where(source, name, "want")
        want = tuple(tuple(_condition(where, s, s.split())) for s in table["want"])
        for s, row in zip(table["want"], want):
            if row[oc.I_ARG1] in oc.FRAME_CONDITIONS:
                raise where.error(s, "reads a running card's selection: not in a want")
            if row[oc.I_ARG1] in oc.IN_PLAY_CONDITIONS:
                raise where.error(s, "reads the card in play: not in a want")
            if _reads_played(row):
                raise where.error(s, "reads the minion just played: not in a want")
        if "action" not in hooks:
            raise BalanceError(f"{source}: {name!r} has a want but no action")
    usable = None
    if "usable" in table:
        where = _Where(source, name, "usable")
        usable = tuple(tuple(_condition(where, s, s.split())) for s in table["usable"])
        for s, row in zip(table["usable"], usable):
            if row[oc.I_ARG1] in oc.FRAME_CONDITIONS or row[oc.I_ARG1] in READS_SELECTION or _reads_played(row):
                raise where.error(s, "reads a selection or a played minion: a talent's usable test reads the card "
                                  "and the board")
        if "talent" not in hooks:
            raise BalanceError(f"{source}: {name!r} has a usable test but no talent")
    static = _static(_Where(source, name, "static"), table.get("static", []))
    return CardEffects(hooks, want, (*static, HOST_RULES.get(host, 0), window), usable)


def _window(source: str, name: str, text, special: bool) -> int:
    """A card's ``window`` (opcodes.WINDOW_* bits; 0: none): a source of ``WINDOW_SOURCES``, then
    any of ``WINDOW_LIMITS``. A card has a window exactly when it has a special."""
    if text is None:
        if special:
            raise BalanceError(f"{source}: {name!r} has a special but no window: give window = "
                               f"\"{'|'.join(WINDOW_SOURCES)} [{' '.join(WINDOW_LIMITS)}]\"")
        return 0
    words = text.split() if isinstance(text, str) else []
    if not words or words[0] not in WINDOW_SOURCES or any(w not in WINDOW_LIMITS for w in words[1:]):
        raise BalanceError(f"{source}: {name!r} window = {text!r}: give where the card offers its "
                           f"Special from ({', '.join(WINDOW_SOURCES)}), then any of {', '.join(WINDOW_LIMITS)}")
    if not special:
        raise BalanceError(f"{source}: {name!r} has a window but no special (what the Special does)")
    bits = WINDOW_SOURCES[words[0]]
    for w in words[1:]:
        bits |= WINDOW_LIMITS[w]
    if bits & oc.WINDOW_ONLY and not bits & oc.WINDOW_HAND:
        raise BalanceError(f"{source}: {name!r} window = {text!r}: only (never an ordinary play) is for a card "
                           "played from your hand")
    return bits


@lru_cache(maxsize=None)
def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise BalanceError(f"cannot read the card effects {str(path)!r}: {e}") from None


def faction_file(faction: str, tricksters: str = "current") -> Path:
    stem = faction.lower() + ("_2012" if faction == "Tricksters" and tricksters == "2012" else "")
    return DATA / f"{stem}.toml"


def faction_data(faction: str, tricksters: str = "current", switches: frozenset = frozenset()) -> dict:
    """Card name -> CardEffects for one faction's file (missing file: no card as data)."""
    path = faction_file(faction, tricksters)
    if not path.exists():
        return {}
    raw = _read(path)
    out = {}
    for name, table in raw.items():
        if not isinstance(table, dict):
            raise BalanceError(f"{path.name}: {name!r} must be a table of hooks")
        if "same_as_current" in table:
            current = table["same_as_current"]
            base = _read(faction_file(faction)).get(current)
            if base is None:
                raise BalanceError(f"{path.name}: {name!r} is same_as_current = {current!r}, but "
                                   f"{faction_file(faction).name} has no such card")
            table = base
        out[name] = _card_effects(path.name, name, table, switches)
    return out


BASE_FILE = "bases.toml"
# a base's hooks: after it scored (a frame), after a minion was played on it (a frame, "me" the
# minion's controller, before the cards' after-played triggers), after a minion there was
# destroyed (a leaf, ``triggers.leaf``: "me" the minion's owner; it runs inside the
# destruction, so it pushes no frame)
BASE_HOOKS = {"after_scoring": H_AFTER_SCORING, "after_played": H_AFTER_PLAYED,
              "after_destroyed": H_AFTER_DESTROYED, "start_of_turn": H_START, "after_replaced": H_AFTER_REPLACED}
# a base's frame has no card, so its programs use only the steps and conditions that read none
BASE_OPS = {oc.OP_FOR: "FOR", oc.OP_NEXT: "NEXT", oc.OP_IF: "IF", oc.OP_MAY: "MAY",
            oc.OP_SEL_MINION: "SEL_MINION", oc.OP_DESTROY: "DESTROY", oc.OP_RETURN: "RETURN", oc.OP_BOTTOM: "BOTTOM",
            oc.OP_DRAW: "DRAW me N",
            oc.OP_GAIN_VP: "GAIN_VP", oc.OP_DISCARD_HAND: "DISCARD me hand",
            oc.OP_GRANT_MINION: "GRANT_MINION (not here)", oc.OP_MARK_USED: "MARK self used",
            oc.OP_MOVE: "MOVE"}
BASE_CONDITIONS = ("ALWAYS", "NEVER", "HAND_LE", "HAND_HAS_MINION", "HAND_HAS_MINION_PRINTED_LE",
                   "DISCARD_HAS_MINION", "DISCARD_GT_DECK", "DECK_HAS_ACTION", "SELECTED", "UNUSED_THIS_TURN",
                   "HAND_MOST")
LEAF_OPS = {oc.OP_IF: "IF", oc.OP_MARK_USED: "MARK self used", oc.OP_GAIN_VP: "GAIN_VP", oc.OP_DRAW: "DRAW me N"}
LEAF_CONDITIONS = ("ALWAYS", "NEVER", "UNUSED_THIS_TURN")
# a card's leaves (``triggers.leaf``, "me" the minion's owner): after it was destroyed (inside
# the destruction, before the next destroyed minion's triggers) and after it was discarded from
# play by its base's scoring; no card frame, so no selection, no MARK, no once-per-turn test
CARD_LEAVES = {"after_destroyed": "destruction", "after_discarded": "base's scoring"}
CARD_LEAF_OPS = {oc.OP_IF: "IF", oc.OP_GAIN_VP: "GAIN_VP", oc.OP_DRAW: "DRAW me N",
                 oc.OP_DISCARD_RANDOM: "DISCARD others random N"}
CARD_LEAF_CONDITIONS = ("ALWAYS", "NEVER")
# a base table's ``if`` keys: the rules switches, and the 2012 printing of Cave of Shinies and
# Mushroom Kingdom (``Rules.trickster_bases``)
BASES_2012 = "bases_2012"
SCORING_VP = {"WINNERS_POWER_DIV": oc.VP_WINNERS_POWER_DIV, "PER_MINION": oc.VP_PER_MINION}


@dataclass(frozen=True)
class BaseEffects:
    """One base's data: a step list per hook name, the power it gives every minion on it
    (static MINION_POWER) and its scoring VP rule (opcodes.VP_*) with its number."""

    hooks: dict
    minion_power: int = 0
    scoring_vp: tuple = (oc.VP_NONE, 0)


def _base_program(source: str, name: str, hook: str, steps) -> tuple:
    """The rows of a base's program for ``hook``, checked: only steps that read no card, and a
    leaf (after_destroyed) only the leaf's."""
    if not isinstance(steps, list) or not steps or not all(isinstance(v, str) for v in steps):
        raise BalanceError(f"{source}: {name!r} {hook} must be a non-empty list of strings, e.g. "
                           f"{hook} = [\"FOR winners\", \"DRAW me 1\", \"NEXT\"]; got {steps!r}")
    where = _Where(source, name, hook)
    rows = [_step(where, text) for text in steps]
    if hook == "after_destroyed":
        _check_steps(where, steps, rows, LEAF_OPS, LEAF_CONDITIONS,
                     "a leaf's (after_destroyed runs inside a destruction)")
    else:
        _check_steps(where, steps, rows, BASE_OPS, BASE_CONDITIONS, "a base's (a base has no card)")
    for text, row in zip(steps, rows):
        if row[oc.I_OP] == oc.OP_SEL_MINION and (row[oc.I_LEGAL] == oc.LEGAL_AFFECT
                                                 or row[oc.I_FLAGS] & oc.FLAG_NOT_SAME_NAME):
            raise where.error(text, "a base's selection takes legal=none or legal=destroy (by no "
                              "player's card) and no not_same_name (it reads the acting card)")
        if row[oc.I_OP] == oc.OP_SEL_MINION and row[oc.I_WHERE] == oc.WHERE_BASE:
            raise where.error(text, "where=base reads a base a card chose: not in a base's program (its "
                              "loops list players)")
        if row[oc.I_OP] == oc.OP_MOVE and row[oc.I_LEGAL] != oc.LEGAL_NONE:
            raise where.error(text, "a base's MOVE takes legal=none (a base is no player's card)")
        if row[oc.I_OP] == oc.OP_FOR and row[oc.I_ARG1] == oc.FOR_RUNNERS_UP \
                and hook not in ("after_scoring", "after_replaced"):
            raise where.error(text, "FOR runners_up lists the runners-up of the base that scored: in "
                              "after_scoring or after_replaced only")
        # after_replaced: the base's minions are gone, so its players are the runners-up kept
        # from its scoring, or every player
        if hook == "after_replaced" and row[oc.I_OP] == oc.OP_FOR \
                and row[oc.I_ARG1] not in (oc.FOR_RUNNERS_UP, oc.FOR_PLAYERS):
            raise where.error(text, f"in {hook} the base's minions are gone: FOR runners_up or FOR players only")
    _check_order(where, steps, rows)
    _link_loops(where, steps, rows)
    return tuple(map(tuple, rows))


def _check_steps(where, steps, rows, ops: dict, conditions: tuple, kind: str) -> None:
    """Every step of ``rows`` (from ``steps``) is one of ``ops`` (DRAW a fixed number; GRANT_MINION
    not "here") and every IF or MAY condition one of ``conditions``; ``kind`` names the program
    in the error."""
    for text, row in zip(steps, rows):
        op = row[oc.I_OP]
        if op not in ops or op == oc.OP_DRAW and row[oc.I_ARG1] != oc.DRAW_FIXED \
                or op == oc.OP_GRANT_MINION and row[oc.I_ARG1] == G_AT:
            raise where.error(text, f"not {kind} step; allowed: {', '.join(ops.values())}")
        if op in (oc.OP_IF, oc.OP_MAY) and row[oc.I_ARG1] not in {CONDITIONS[c] for c in conditions}:
            raise where.error(text, f"not {kind} condition; allowed: {', '.join(conditions)}")


def _base_effects(source: str, name: str, table: dict, switches: frozenset) -> BaseEffects:
    """A base's table: its hooks' steps (``BASE_HOOKS``: "me" is the current player after
    scoring until a FOR over the base's players makes each one "me"), ``static =
    ["MINION_POWER N"]``, ``scoring_vp = "WINNERS_POWER_DIV N"|"PER_MINION N"``, and ``if``
    tables (a switch in ``switches`` replaces the keys it gives)."""
    table = _switched(source, name, table, switches, (*SWITCHES, BASES_2012))
    unknown = set(table) - {*BASE_HOOKS, "static", "scoring_vp"}
    if unknown:
        raise BalanceError(f"{source}: {name!r} has {', '.join(sorted(unknown))}; allowed: "
                           f"{', '.join([*BASE_HOOKS, 'static', 'scoring_vp', 'if'])}")
    hooks = {hook: _base_program(source, name, hook, table[hook]) for hook in BASE_HOOKS if hook in table}
    minion_power = 0
    for text in table.get("static", []):
        words = str(text).split()
        if len(words) != 2 or words[0] != "MINION_POWER":
            raise BalanceError(f"{source}: {name!r} static {text!r}: expected MINION_POWER N")
        minion_power = _number(_Where(source, name, "static"), text, words[1])
    scoring_vp = (oc.VP_NONE, 0)
    if "scoring_vp" in table:
        words = str(table["scoring_vp"]).split()
        if len(words) != 2 or words[0] not in SCORING_VP:
            raise BalanceError(f"{source}: {name!r} scoring_vp {table['scoring_vp']!r}: expected "
                               f"{' N, '.join(SCORING_VP)} N")
        n = _number(_Where(source, name, "scoring_vp"), table["scoring_vp"], words[1])
        if n < 1:
            raise BalanceError(f"{source}: {name!r} scoring_vp {table['scoring_vp']!r}: N must be 1 or more")
        scoring_vp = (SCORING_VP[words[0]], n)
    return BaseEffects(hooks, minion_power, scoring_vp)


def base_data(switches: frozenset = frozenset()) -> dict:
    """Base name -> BaseEffects (data/effects/bases.toml; bases it does not name have no data),
    under ``switches`` (rules switches that are on, and ``BASES_2012`` for the 2012 printing)."""
    path = DATA / BASE_FILE
    if not path.exists():
        return {}
    out = {}
    for name, table in _read(path).items():
        if not isinstance(table, dict):
            raise BalanceError(f"{BASE_FILE}: {name!r} must be a table")
        out[name] = _base_effects(BASE_FILE, name, table, frozenset(switches))
    return out


def base_switches(cat, switches=frozenset()) -> frozenset:
    """The switches a card list's bases read: the rules switches, and ``BASES_2012`` when its
    Cave of Shinies and Mushroom Kingdom are the 2012 printing."""
    return frozenset(switches) | ({BASES_2012} if cat.trickster_bases == "2012" else set())


def _assemble_bases(cat, rows: list, switches: frozenset) -> np.ndarray:
    """Append the bases' programs of ``cat`` (its base order) to ``rows``; returns int64[nbases,
    N_HOOKS + 3]: each base's program start per hook (-1: none), its MINION_POWER, its scoring
    VP rule and number (``kernel.tables.BS_PROG`` onwards)."""
    data = base_data(base_switches(cat, switches))
    unknown = set(data) - {b.name for b in cat.bases}
    if unknown:
        raise BalanceError(f"{BASE_FILE}: no base named {', '.join(sorted(map(repr, unknown)))}; the bases: "
                           f"{', '.join(b.name for b in cat.bases)}")
    out = []
    for b in cat.bases:
        effects = data.get(b.name, BaseEffects({}))
        starts = [-1] * N_HOOKS
        for hook, steps in effects.hooks.items():
            starts[BASE_HOOKS[hook]] = len(rows)
            rows.extend(list(r) for r in steps)
            rows.append([oc.OP_END] + [0] * (oc.I_N - 1))
        out.append([*starts, effects.minion_power, *effects.scoring_vp])
    return np.array(out, np.int64).reshape(-1, N_HOOKS + 3)


def _check_play_on(source: str, name: str, effects: CardEffects | None) -> None:
    """A play-on action names a host rule of its kind (minion or base); no other card has a
    host, an on_attach program or a step that reads an attached card (DISCARD self, SEL_HOST,
    pile=actions_on_host); the host steps need a card played on a minion."""
    rule = effects.static[4] if effects is not None else 0
    hooks = effects.hooks if effects is not None else {}
    host_steps = [h for h, rows in hooks.items() for r in rows if r[oc.I_OP] == oc.OP_SEL_HOST
                  or r[oc.I_OP] == oc.OP_SEL_CARD and r[oc.I_WHERE] == oc.PILE_ACTIONS_ON_HOST]
    if name not in PLAY_ON:
        attached = "on_attach" in hooks or host_steps or any(
            r[oc.I_OP] == oc.OP_DISCARD_SELF for rows in hooks.values() for r in rows)
        if rule or attached:
            what = "a host" if rule else "on_attach" if "on_attach" in hooks else "a step for attached cards"
            raise BalanceError(f"{source}: {name!r} has {what} but is not played on a minion or a base")
        return
    on_base = PLAY_ON[name] == PLAYON_BASE
    if host_steps and on_base:
        raise BalanceError(f"{source}: {name!r} {host_steps[0]}: SEL_HOST and pile=actions_on_host need a "
                           "card played on a minion")
    kind, rules = ("a base", BASE_HOST_RULES) if on_base else ("a minion", MINION_HOST_RULES)
    if rule not in rules.values():
        got = next((f"host = {r!r} is a rule for {'a minion' if on_base else 'a base'}; "
                    for r, v in HOST_RULES.items() if v == rule), "")
        raise BalanceError(f"{source}: {name!r} is played on {kind}: {got}give it host = one of "
                           f"{', '.join(rules)}")


def _check_window(source: str, card, effects: CardEffects) -> None:
    """What a card's window asks of its kind: a minion from another base moves, an action never
    played otherwise is an action, and a minion played from your hand by its Special needs the
    base chosen first."""
    window = effects.static[-1]
    if window & (oc.WINDOW_ELSEWHERE | oc.WINDOW_HERE) and card.kind == "action":
        raise BalanceError(f"{source}: {card.name!r} window on a base (elsewhere, here): an action is not on a base")
    if window & oc.WINDOW_ONLY and card.kind != "action":
        raise BalanceError(f"{source}: {card.name!r} window \"only\" (never an ordinary play) is for an action")
    steps = effects.hooks.get("special", ())
    if window & oc.WINDOW_EACH_TARGET and (steps[0][oc.I_OP] != oc.OP_SEL_MINION or steps[0][oc.I_MODE] != oc.MODE_ONE):
        raise BalanceError(f"{source}: {card.name!r} window each_target: the special's first step must be "
                           "a SEL_MINION with mode=one (its candidates are the window's options)")
    for j, row in enumerate(steps):
        if row[oc.I_OP] == oc.OP_PLAY_SELF and card.kind != "action" and \
                not any(r[oc.I_OP] == oc.OP_SEL_BASE for r in steps[:j]):
            raise BalanceError(f"{source}: {card.name!r} special: PLAY_SELF plays a minion on the chosen "
                               "base: give SEL_BASE before it")


def assemble(cat, switches=frozenset()):
    """The programs of card list ``cat`` (catalogue order, as ``kernel.tables.card_tables``'s
    definition rows): (prog int64[n, I_N], starts int64[ndefs, N_HOOKS] (a row per hook number, -1:
    none), wants int64[ndefs] and usables int64[ndefs] (a talent's usable test; -1: none), statics
    int64[ndefs, 6] (``CardEffects.static``), bases
    int64[nbases, N_HOOKS + 3] (``_assemble_bases``)). Program rows start with a lone OP_END at
    row 0, so that a start of 0 never names a program."""
    switches = frozenset(switches)
    rows: list = [[oc.OP_END] + [0] * (oc.I_N - 1)]
    starts, wants, usables, statics = [], [], [], []
    for faction, cards in cat.factions.items():
        data = faction_data(faction, cat.tricksters, switches)
        unknown = set(data) - {c.name for c in cards}
        if unknown:
            raise BalanceError(f"{faction_file(faction, cat.tricksters).name}: no {faction} card "
                               f"named {', '.join(sorted(map(repr, unknown)))}")
        for card in cards:
            hook_starts = [-1] * N_HOOKS
            want, usable, action_selection = -1, -1, None
            effects = data.get(card.name)
            _check_play_on(faction_file(faction, cat.tricksters).name, card.name, effects)
            if effects is not None and card.kind != "minion":
                for hook, steps in effects.hooks.items():
                    if hook in CARD_LEAVES:
                        raise BalanceError(f"{faction_file(faction, cat.tricksters).name}: {card.name!r} {hook}: "
                                           "only a minion is destroyed or discarded from a base")
                    if any(r[oc.I_OP] in oc.SELF_MINION_STEPS for r in steps):
                        raise BalanceError(f"{faction_file(faction, cat.tricksters).name}: {card.name!r} {hook}: "
                                           "SEL_SELF and MOVE_SELF act on a minion card itself")
            if effects is not None:
                _check_window(faction_file(faction, cat.tricksters).name, card, effects)
                for hook, steps in effects.hooks.items():
                    if any(r[oc.I_OP] == oc.OP_FOR and r[oc.I_ARG1] in BASE_FOR_LISTS for r in steps):
                        raise BalanceError(f"{faction_file(faction, cat.tricksters).name}: {card.name!r} {hook}: "
                                           "FOR winners and FOR players_here list a base's players: "
                                           f"in {BASE_FILE} only")
                    hook_starts[HOOKS[hook]] = len(rows)
                    first_selection = None
                    for row in steps:
                        if row[oc.I_OP] in (oc.OP_SEL_MINION, oc.OP_MOVE) and first_selection is None:
                            first_selection = len(rows)
                        rows.append(list(row))
                    rows.append([oc.OP_END] + [0] * (oc.I_N - 1))
                    if hook == "action":
                        action_selection = first_selection
                if effects.want is not None:
                    want = len(rows)
                    for row in effects.want:
                        row = list(row)
                        allowed = READS_SELECTION.get(row[oc.I_ARG1])
                        if allowed is not None:
                            if action_selection is None or rows[action_selection][oc.I_OP] not in allowed:
                                raise BalanceError(f"{card.name!r}: its want reads the action's first "
                                                   "selection, which is not of the kind it needs")
                            if rows[action_selection][oc.I_OP] == oc.OP_SEL_MINION \
                                    and rows[action_selection][oc.I_WHERE] == oc.WHERE_BASE:
                                raise BalanceError(f"{card.name!r}: its want reads the action's first "
                                                   "selection, whose where=base a want has not chosen")
                            if row[oc.I_ARG1] == oc.COND_V_RISES and \
                                    rows[action_selection + 1][oc.I_OP] != oc.OP_POWER_TEMP:
                                raise BalanceError(f"{card.name!r}: want V_RISES needs POWER_TEMP "
                                                   "right after the action's first selection")
                            row[oc.I_ARG2] = action_selection
                        rows.append(row)
                    rows.append([oc.OP_END] + [0] * (oc.I_N - 1))
                if effects.usable is not None:
                    usable = len(rows)
                    rows += [list(row) for row in effects.usable] + [[oc.OP_END] + [0] * (oc.I_N - 1)]
            starts.append(hook_starts)
            wants.append(want)
            usables.append(usable)
            statics.append(effects.static if effects is not None else (0,) * 6)
    statics = np.array(statics, np.int64).reshape(-1, 6)
    names = [c.name for cards in cat.factions.values() for c in cards]
    per_name = sorted({n for n, s in zip(names, statics) if s[1]})
    if len(per_name) > 1:
        raise BalanceError(f"PER_NAME_HERE on {', '.join(map(repr, per_name))}: the kernel counts one "
                           "such name per base; give it to one card name")
    bases = _assemble_bases(cat, rows, switches)
    return (np.array(rows, np.int64), np.array(starts, np.int64).reshape(-1, N_HOOKS),
            np.array(wants, np.int64), np.array(usables, np.int64), statics, bases)
