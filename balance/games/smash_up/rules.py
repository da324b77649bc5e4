"""Rules of Smash Up (core set): every parameter a designer varies, validated.

The kernel and the reference both read every key. Defaults are the rulebook
(rules/smash-up.md) and the spec's decisions (rules/smash-up-cards.md §12): 2-4 players,
n + 1 bases, hands of 5 with one mulligan of a minion-less hand, one minion and one action a
turn, draw 2, a hand limit of 10, the game ends after a turn in which someone has 15 VP (play
on while the lead is tied), and a simulation cap of 200 turns reported as ``capped``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from balance.core.errors import BalanceError, check_int, one_of
from balance.core.rulebook import RulesBase

from .catalogue import BASES, TRICKSTER_LISTS, Catalogue, catalogue_for, parse_swap

RULES_VERSION = "smash-up/5"  # bump when the games a seed plays change: runs record it (tests/test_golden.py)
MIN_PLAYERS, MAX_PLAYERS = 2, 4
EDITIONS = TRICKSTER_LISTS  # the same two printings: current (errata) and 2012
SWITCHES = ("collector_excludes_collectors", "tiger_assassin_any_base", "homeworld_each_time")
FACTION_SETUPS = ("drawn", "draft")

DOCS: dict[str, tuple[str, str]] = {
    "players": (f"integer {MIN_PLAYERS}..{MAX_PLAYERS}", "Number of players."),
    "vp_to_win": ("integer 1..100", "The game ends after a turn in which a player has this many VP "
                  "(most VP wins; a tied lead plays on). A scored base is replaced from the base deck "
                  "while it lasts and the deck is never reshuffled (the rulebook), so well above 15 "
                  "the bases run out and games end at max_turns: the report's capped share says so."),
    "minion_plays": ("integer 0..5", "Free minion plays each turn (extra plays granted by cards add to it)."),
    "action_plays": ("integer 0..5", "Free action plays each turn."),
    "hand_size": ("integer 1..20", "Cards drawn for the opening hand."),
    "mulligan": ("true or false", "A hand without a minion may be shown, discarded and redrawn once."),
    "start_vp": (f"list of up to {MAX_PLAYERS} integers 0..vp_to_win-1, one per seat from seat 0",
                 "VP each seat starts with: a handicap for the seats that play later. Seats not listed "
                 "start with 0, and entries past the player count are unused, so one list serves every "
                 "count: [0, 1, 1, 1] gives every seat after the first 1 VP."),
    "extra_cards": (f"list of up to {MAX_PLAYERS} integers 0..10, one per seat from seat 0",
                    "Cards each seat draws for its opening hand beyond hand_size (and again if it "
                    "mulligans): a handicap for the seats that play later, read like start_vp: "
                    "[0, 1, 1, 1] gives every seat after the first a sixth card."),
    "draw": ("integer 0..10", "Cards drawn in each turn's draw phase (after scoring, before the "
             "end of the turn)."),
    "hand_limit": ("integer 1..40", "Cards a player may keep after drawing; the rest are discarded."),
    "extra_bases": (f"integer 0..{BASES - MAX_PLAYERS}", "Bases in play = players + this (the rulebook: 1); "
                    "more bases in play leave fewer in the base deck (see vp_to_win)."),
    "max_turns": ("integer 1..10000", "Simulation cap: a game still running after this many turns "
                  "stops as the 'capped' outcome (never counted as a finish)."),
    "factions": (" or ".join(FACTION_SETUPS), "How seats get their factions when no --side is given: "
                 "drawn at random per game (a randomised experiment: faction tests are causal), or the "
                 "rulebook's snake draft, each seat picking as its strategy does (random: uniformly; "
                 "greedy: the best faction, then the best pair with it, by data/draft.json)."),
    "tricksters": (" or ".join(TRICKSTER_LISTS), "Tricksters card list: the current (errata) one or the "
                   "2012 printing."),
    "trickster_bases": (" or ".join(EDITIONS), "Cave of Shinies and Mushroom Kingdom as revised (current) "
                        "or as printed in 2012 [D5]."),
    "collector_excludes_collectors": ("true or false", "Collector may not return another Collector [D4]."),
    "tiger_assassin_any_base": ("true or false", "Tiger Assassin may destroy a minion on any base [D3]."),
    "homeworld_each_time": ("true or false", "The Homeworld grants its extra minion after every minion "
                            "played there (original printing), not once per turn."),
    "swap": ("list of 'Faction: Card -> Card'", "Per-faction card substitutions, in order: one copy of "
             "the first card becomes one more copy of the second, a card of the same faction (a "
             "faction keeps 20 cards). Give them in a variant file: swap = [\"Aliens: Invader -> "
             "Collector\"]."),
}


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule-variant parameter of Smash Up; defaults are the rulebook."""

    DOCS = DOCS  # `balance rules`: allowed values and meaning per key

    players: int = 2
    vp_to_win: int = 15
    minion_plays: int = 1
    action_plays: int = 1
    hand_size: int = 5
    mulligan: bool = True
    start_vp: tuple[int, ...] = ()  # per seat from seat 0; seats past its end start with 0
    extra_cards: tuple[int, ...] = ()  # the same, cards beyond hand_size in the opening hand
    draw: int = 2
    hand_limit: int = 10
    extra_bases: int = 1
    max_turns: int = 200
    factions: str = "drawn"
    tricksters: str = "current"
    trickster_bases: str = "current"
    collector_excludes_collectors: bool = False
    tiger_assassin_any_base: bool = False
    homeworld_each_time: bool = False
    swap: tuple[str, ...] = ()

    @classmethod
    def coerce(cls, key: str, value):
        """A per-seat list given one number is refused: the rulebook's reading of a scalar as a
        list of one gave seat 0, the first player and already the favoured seat, the VP or card
        meant as a handicap for the others."""
        if key in ("start_vp", "extra_cards") and not isinstance(value, (list, tuple)):
            raise BalanceError(f"{key}={value!r} is one number, but {key} is a list, one entry per seat from "
                               f"seat 0; e.g. {key}=[0, 1, 1, 1] for every seat after the first")
        return super().coerce(key, value)

    def validated(self) -> "Rules":
        """Check every parameter (one-line BalanceError naming the value and what is allowed)."""
        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_int("vp_to_win", self.vp_to_win, 1, 100)
        check_int("minion_plays", self.minion_plays, 0, 5)
        check_int("action_plays", self.action_plays, 0, 5)
        check_int("hand_size", self.hand_size, 1, 20)
        check_int("draw", self.draw, 0, 10)
        check_int("hand_limit", self.hand_limit, 1, 40)
        check_int("extra_bases", self.extra_bases, 0, BASES - MAX_PLAYERS)
        check_int("max_turns", self.max_turns, 1, 10_000)
        for key, high in (("start_vp", self.vp_to_win - 1), ("extra_cards", 10)):
            # start_vp below vp_to_win: a seat may not win before anyone plays
            values = getattr(self, key)
            if not isinstance(values, tuple) or len(values) > MAX_PLAYERS:
                shown = list(values) if isinstance(values, tuple) else values
                raise BalanceError(f"{key}={shown!r}: give at most {MAX_PLAYERS} numbers, one per seat "
                                   "from seat 0, e.g. [0, 1, 1, 1]")
            for n in values:
                check_int(key, n, 0, high)
        if self.players + self.extra_bases > BASES:
            raise BalanceError(f"players + extra_bases = {self.players + self.extra_bases} bases in play; "
                               f"allowed: at most the {BASES} bases of the core set")
        if self.factions not in FACTION_SETUPS:
            raise one_of("factions setup", self.factions, FACTION_SETUPS)
        if self.tricksters not in TRICKSTER_LISTS:
            raise one_of("tricksters list", self.tricksters, TRICKSTER_LISTS)
        if self.trickster_bases not in EDITIONS:
            raise one_of("trickster_bases edition", self.trickster_bases, EDITIONS)
        for key in ("mulligan", *SWITCHES):
            if not isinstance(getattr(self, key), bool):
                raise BalanceError(f"{key}={getattr(self, key)!r} is not true or false")
        if not isinstance(self.swap, tuple):
            raise BalanceError(f"swap={self.swap!r}: give a list of 'Faction: Card -> Card'")
        for swap in self.swap:  # each one's form first: a table or list cannot key the cached catalogue
            parse_swap(swap)
        self.catalogue()  # every swap names two cards of its faction, with a copy to swap out
        # canonical per-seat lists: entries past the player count and trailing zeros change no
        # game, so rules that play the same games compare equal (compare warns of identical
        # variants; the report leaves a lever out where it equals another at that count)
        trimmed = {key: _trimmed(getattr(self, key)[:self.players]) for key in ("start_vp", "extra_cards")}
        return self if all(getattr(self, k) == v for k, v in trimmed.items()) else replace(self, **trimmed)

    def catalogue(self) -> Catalogue:
        """The card list these rules play: the Tricksters list and bases, then the swaps."""
        return catalogue_for(self.tricksters, self.trickster_bases, self.swap)

    @property
    def bases_in_play(self) -> int:
        return self.players + self.extra_bases

    def seat_start_vp(self, seat: int) -> int:
        """The VP the seat starts with (``start_vp``, 0 past its end)."""
        return self.start_vp[seat] if seat < len(self.start_vp) else 0

    def opening_hand(self, seat: int) -> int:
        """The cards the seat draws for its opening hand: hand_size plus its ``extra_cards``."""
        return self.hand_size + (self.extra_cards[seat] if seat < len(self.extra_cards) else 0)


def _trimmed(values: tuple[int, ...]) -> tuple[int, ...]:
    """A per-seat list without its trailing zeros (seats past its end get 0)."""
    end = len(values)
    while end and values[end - 1] == 0:
        end -= 1
    return values[:end]
