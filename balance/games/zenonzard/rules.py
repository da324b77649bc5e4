"""Rules of ZENONZARD: every parameter a designer varies, validated.

Defaults are the rules as ``rules/zenonzard.md`` restates them, with its [decision]s: two
players, 40-card decks of at most 3 copies a name, player life 12 minus the two Forces' lives,
6 cards and one mulligan, a hand of 10, a field of 5, a base of 10, one right to move a turn,
no draw and no move on the first player's first turn, and the v1 keyword set. A seat's deck
and Force pair are its side (``--side``), not rules; ``decks``, ``deck_pool`` and
``mirror_decks`` say how a side not given is drawn (as Smash Up's ``factions`` does).
"""
from __future__ import annotations

from dataclasses import dataclass

from balance.core.errors import BalanceError, check_int, one_of
from balance.core.rulebook import RulesBase

from .catalogue import KEYWORDS

RULES_VERSION = "zenonzard/2"  # bump when the games a seed plays change: runs record it (tests/test_golden.py)
MAX_FORCE_LIVES = 8  # the two longest-lived Forces (Minotaur and Chiron, 4 each)

NEW_MINION_TARGETS = ("force_only", "player_if_no_force", "any")
MOVED_BASE_TARGETS = ("force_while_force", "any")
FORCE_OVERFLOW = ("lost", "to_player")
ENTERS = ("active", "rested")
COLOUR_PART = ("ceil_third", "zero", "printed_only")
MISSING_STATS = ("exclude", "impute")
PIERCE = ("dp_difference", "full_dp", "off")
INFILTRATE = ("same_cost", "unblockable")
DECK_KINDS = ("mono", "duo", "mono+duo", "reference")
CURVE_KINDS = ("standard", "varied")
MAX_DECK_POOL = 200

DOCS: dict[str, tuple[str, str]] = {
    "players": ("integer 2", "Players: ZENONZARD is a duel."),
    "total_life": (f"integer {MAX_FORCE_LIVES + 1}..40", "A player's life is this minus its two Forces' lives."),
    "deck_size": ("integer 10..60", "Cards in a deck, exactly."),
    "max_copies": ("integer 1..40", "Copies of one card name a deck may hold (the Basic base minions: any number)."),
    "opening_hand": ("integer 0..20", "Cards drawn at the start."),
    "mulligans": ("integer 0..3", "Times a player may return any cards of the opening hand, shuffle and redraw."),
    "hand_max": ("integer 1..30", "Hand limit: a card drawn beyond it goes to the trash."),
    "field_max": ("integer 1..10", "Minions on a field; a summon beyond it trashes one already there."),
    "base_max": ("integer 1..20", "Mana on a base; a card put beyond it discards one first."),
    "moves_per_turn": ("integer 0..5", "Rights to move gained each turn (they do not carry over)."),
    "first_turn_draw": ("true or false", "The first player draws on the game's first turn."),
    "first_turn_move": ("true or false", "The first player gains its right to move on the game's first turn."),
    "first_turn_attack": ("true or false", "The first player may attack on the game's first turn (the fan "
                          "rulebook forbids it)."),
    "new_minion_targets": (" / ".join(NEW_MINION_TARGETS), "What a minion that was not in play at the start "
                           "of the turn may attack: only a Force; the player once no Force stands; anything."),
    "moved_base_minion_targets": (" / ".join(MOVED_BASE_TARGETS), "What a base minion moved to the field this "
                                  "turn may attack: only a Force while one stands; anything."),
    "tie_destroys_both": ("true or false", "Equal BP destroys both minions (else neither)."),
    "force_overflow": (" / ".join(FORCE_OVERFLOW), "Damage beyond a Force's remaining life: lost, or dealt "
                       "to its player."),
    "mana_enters": (" / ".join(ENTERS), "State of a card or colourless mana put onto the base in the mana phase."),
    "summon_enters": (" / ".join(ENTERS), "State of a summoned minion."),
    "force_tutor_enters": (" / ".join(ENTERS), "State of the base minion a destroyed Force puts onto the base."),
    "cost_9plus": ("integer 9..12", "The cost of a card printed 9+."),
    "colour_part": (" / ".join(COLOUR_PART), "Mana of the card's colour its cost needs: the printed part, "
                    "else ceil(cost/3) for a coloured card (ceil_third); none at all, printed parts "
                    "included (zero); the printed part, else none (printed_only)."),
    "missing_stats": (" / ".join(MISSING_STATS), "Minions without printed BP/DP: left out of generated decks "
                      "and refused in deck lists; or given the median of their cost (base minions 300/1)."),
    "keywords": ("list of " + ", ".join(KEYWORDS), "The keywords simulated (a card's others are ignored)."),
    "pierce": (" / ".join(PIERCE), "Pierce: the blocked target takes the attacker's DP minus the blocker's, "
               "its whole DP, or nothing."),
    "infiltrate": (" / ".join(INFILTRATE), "Infiltrate: blocked only by a minion of the same cost, or never."),
    "decks": (" / ".join(DECK_KINDS), "The decks a seat draws from each game when --side gives it none: "
              "generated one-colour decks, two-colour decks, either, or the six reference decks "
              "(docs/rules/zenonzard.md, 'Generated decks')."),
    "deck_pool": (f"integer 1..{MAX_DECK_POOL}", "How many decks a run generates to draw from: deck k from "
                  "deck_seed and k (not the run's seed: every run plays the same decks), its colours taken in "
                  "turn (reference: always the six)."),
    "curves": (" / ".join(CURVE_KINDS), "The mana curve of the drawn decks: the spec's, or for curve studies "
               "low, standard and high curves in turn (every colour on every curve), so a deck's curve is "
               "drawn at random with it."),
    "deck_seed": ("integer 0..2**32-1", "The generated decks' seed: deck k draws from the stream (deck_seed, k), "
                  "so runs with other game seeds or rules play the same decks."),
    "mirror_decks": ("true or false", "Both seats play the same drawn deck in a game (isolates the Forces "
                     "and the seat)."),
    "turn_cap": ("integer 0..1000", "Safety cap on game turns (0: none; the rules end every game by deck-out); "
                 "a game stopped by it is the 'capped' outcome."),
}


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule-variant parameter of ZENONZARD; defaults are the rules (``rules/zenonzard.md``)."""

    DOCS = DOCS  # `balance rules`: allowed values and meaning per key

    players: int = 2
    total_life: int = 12
    deck_size: int = 40
    max_copies: int = 3
    opening_hand: int = 6
    mulligans: int = 1
    hand_max: int = 10
    field_max: int = 5
    base_max: int = 10
    moves_per_turn: int = 1
    first_turn_draw: bool = False
    first_turn_move: bool = False
    first_turn_attack: bool = True
    new_minion_targets: str = "force_only"
    moved_base_minion_targets: str = "force_while_force"
    tie_destroys_both: bool = True
    force_overflow: str = "lost"
    mana_enters: str = "active"
    summon_enters: str = "active"
    force_tutor_enters: str = "active"
    cost_9plus: int = 9
    colour_part: str = "ceil_third"
    missing_stats: str = "exclude"
    keywords: tuple[str, ...] = KEYWORDS
    pierce: str = "dp_difference"
    infiltrate: str = "same_cost"
    decks: str = "mono"
    deck_pool: int = 60
    deck_seed: int = 0
    curves: str = "standard"
    mirror_decks: bool = False
    turn_cap: int = 0

    def validated(self) -> "Rules":
        """Check every parameter (one-line BalanceError naming the value and what is allowed)."""
        check_int("players", self.players, 2, 2)
        check_int("total_life", self.total_life, MAX_FORCE_LIVES + 1, 40)
        check_int("deck_size", self.deck_size, 10, 60)
        check_int("max_copies", self.max_copies, 1, 40)
        check_int("opening_hand", self.opening_hand, 0, 20)
        check_int("mulligans", self.mulligans, 0, 3)
        check_int("hand_max", self.hand_max, 1, 30)
        check_int("field_max", self.field_max, 1, 10)
        check_int("base_max", self.base_max, 1, 20)
        check_int("moves_per_turn", self.moves_per_turn, 0, 5)
        check_int("cost_9plus", self.cost_9plus, 9, 12)
        check_int("turn_cap", self.turn_cap, 0, 1000)
        check_int("deck_pool", self.deck_pool, 1, MAX_DECK_POOL)
        check_int("deck_seed", self.deck_seed, 0, 2**32 - 1)
        if self.opening_hand > min(self.deck_size, self.hand_max):
            raise BalanceError(f"opening_hand={self.opening_hand} is more than deck_size={self.deck_size} or "
                               f"hand_max={self.hand_max}; allowed: integer 0..{min(self.deck_size, self.hand_max)}")
        for key in ("first_turn_draw", "first_turn_move", "first_turn_attack", "tie_destroys_both", "mirror_decks"):
            if not isinstance(getattr(self, key), bool):
                raise BalanceError(f"{key}={getattr(self, key)!r} is not true or false")
        for key, allowed in (("new_minion_targets", NEW_MINION_TARGETS),
                             ("moved_base_minion_targets", MOVED_BASE_TARGETS),
                             ("force_overflow", FORCE_OVERFLOW), ("mana_enters", ENTERS),
                             ("summon_enters", ENTERS), ("force_tutor_enters", ENTERS),
                             ("colour_part", COLOUR_PART), ("missing_stats", MISSING_STATS),
                             ("pierce", PIERCE), ("infiltrate", INFILTRATE), ("decks", DECK_KINDS),
                             ("curves", CURVE_KINDS)):
            if getattr(self, key) not in allowed:
                raise one_of(key.replace("_", " "), getattr(self, key), allowed)
        if not isinstance(self.keywords, tuple):
            raise BalanceError(f"keywords={self.keywords!r}: give a list of {', '.join(KEYWORDS)}")
        for k in self.keywords:
            if k not in KEYWORDS:
                raise one_of("keyword", k, KEYWORDS)
        return self

    @property
    def keyword_mask(self) -> int:
        """The simulated keywords as bits of ``catalogue.KEYWORDS``."""
        return sum(1 << KEYWORDS.index(k) for k in set(self.keywords))

    @property
    def turn_bound(self) -> int:
        """The game turn by which the rules end every game: each draw step takes a card, so the
        second player decks out at the latest at 2 (deck_size - opening_hand) + 2."""
        return 2 * (self.deck_size - self.opening_hand) + 2
