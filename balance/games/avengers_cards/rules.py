"""Rules of Avengers: Infinity War — the card game: every variant parameter, validated.

Defaults are the rulebook (``../shared/rules/avengers-cards.md``). ``Rules.to_kernel()`` turns
a validated rules object into the arrays the kernel reads; nothing downstream re-checks them.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from enum import IntEnum
from importlib import resources
from pathlib import Path

import numpy as np

from balance.core.errors import BalanceError, check_int, one_of
from balance.core.rulebook import RulesBase

RULES_VERSION = "avengers-cards/1"  # bump when the games a seed plays change: runs record it (tests/test_golden.py)
COLOURS = ("Y", "R", "B")
MAX_CARD = 15  # card values are bits of a small mask and indices of counter arrays
MAX_PLAYERS = 5  # five heroes in the box
MAX_PLACES = 5
MAX_TOKENS_PER_COLOUR = 1000


class LossRule(IntEnum):
    MAJORITY = 0  # lose all tokens of the colour held most of (the rulebook)
    NONE = 1  # no loss
    ALL = 2  # lose every token
    ONE = 3  # lose one token of the colour held most of


class LostTokensTo(IntEnum):
    CENTRE = 0  # the rulebook: won back by the next heroes' victory
    RESERVE = 1


class RewardOrder(IntEnum):
    LOWEST_FIRST = 0  # the rulebook: the lowest counted card takes place 1
    HIGHEST_FIRST = 1


class Restrict(IntEnum):
    """Restricted play (Jaffe et al., AIIDE 2012): when a seat's banned cards are out of reach."""

    NEVER = 0  # no restriction
    ALWAYS = 1  # as if removed from the hand
    BEFORE_LAST = 2  # not while villains of the battle remain after this one


# Cfg: indices of the scalar rules in the int64 array the kernel reads.
class Cfg(IntEnum):
    PLAYERS = 0
    HAND_SIZE = 1
    BATTLES = 2
    VILLAINS_PER_BATTLE = 3
    DECK_PER_BATTLE = 4
    TOKENS_PER_COLOUR = 5
    SET_BONUS = 6
    TIES_CANCEL = 7
    LOSS_RULE = 8
    LOST_TOKENS_TO = 9
    REWARD_ORDER = 10
    MAX_SCORE = 11


N_CFG = len(Cfg)


def _enum_names(enum) -> list[str]:
    return [m.name.lower() for m in enum]


def _default_hand(players: int) -> tuple[int, ...] | None:
    """The rulebook's hand: 3 players drop the 1, 4-5 players drop the 7; none for 2."""
    if players == 3:
        return (2, 3, 4, 5, 6, 7)
    if players in (4, 5):
        return (1, 2, 3, 4, 5, 6)
    return None


@dataclass(frozen=True)
class VillainDeck:
    """The villain cards: ``ids[i]``, ``battle[i]`` (1-based), ``strength[i]``,
    ``rewards[i]`` = per place, the tokens ``(Y, R, B)`` it gives."""

    name: str
    ids: tuple[str, ...]
    battle: tuple[int, ...]
    strength: tuple[int, ...]
    rewards: tuple[tuple[tuple[int, int, int], ...], ...]

    def in_battle(self, b: int) -> list[int]:
        return [i for i, x in enumerate(self.battle) if x == b]


def load_villains(spec: str) -> VillainDeck:
    """``default`` (the vendored deck) or a path to a JSON file in the same format."""
    if spec == "default":
        text = resources.files(__package__).joinpath("data/villains.json").read_text("utf-8")
        source = "default"
    else:
        p = Path(spec)
        if not p.is_file():
            raise BalanceError(f"villains: {spec!r} is neither 'default' nor an existing JSON file")
        try:  # a BOM from a Windows editor is no error; UTF-16 ("Unicode" in Notepad) is
            text, source = p.read_text("utf-8-sig"), str(p)
        except (OSError, UnicodeDecodeError) as e:
            raise BalanceError(f"villains: cannot read {spec!r} as UTF-8 JSON ({e}); save it as UTF-8") from None
    ids, battle, strength, rewards = [], [], [], []
    for c in _villain_cards(text, source):
        places = []
        for place in c["rewards"]:
            bad = [t for t in place if t not in COLOURS]
            if bad:
                raise BalanceError(f"villains {source!r}: card {c['id']!r} has token {bad[0]!r}; allowed: Y, R, B")
            places.append(tuple(place.count(col) for col in COLOURS))
        if len(places) > MAX_PLACES:
            raise BalanceError(f"villains {source!r}: card {c['id']!r} rewards {len(places)} places; "
                               f"at most {MAX_PLACES}")
        s = c["strength"]
        if s < 1:
            raise BalanceError(f"villains {source!r}: card {c['id']!r} has strength {s}; must be >= 1")
        ids.append(str(c["id"]))
        battle.append(c["battle"])
        strength.append(s)
        rewards.append(tuple(places))
    if len(set(ids)) != len(ids):
        raise BalanceError(f"villains {source!r}: villain ids are not unique")
    return VillainDeck(source, tuple(ids), tuple(battle), tuple(strength), tuple(rewards))


VILLAIN_SHAPE = 'expected {"villains": [{"id", "battle", "strength", "rewards": [["Y", ...], ...]}, ...]}'
VILLAIN_KEYS = ("id", "battle", "strength", "rewards")


def _villain_cards(text: str, source: str) -> list[dict]:
    """The villain objects of a deck's JSON, each with its keys and their types checked, or one
    line saying which villain and key is wrong: Python's own KeyError or TypeError ("list
    indices must be integers or slices, not str") named neither."""
    def wrong(what: str) -> BalanceError:
        return BalanceError(f"villains {source!r}: {what}; {VILLAIN_SHAPE}")

    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise wrong(f"not valid JSON ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("villains"), list):
        raise wrong('not an object whose "villains" is a list')
    for number, c in enumerate(data["villains"], 1):
        if not isinstance(c, dict):
            raise wrong(f"villain {number} is {c!r}, not an object")
        name = repr(c.get("id", number))
        missing = [key for key in VILLAIN_KEYS if key not in c]
        if missing:
            raise wrong(f"villain {name} has no {missing[0]!r}")
        for key in ("battle", "strength"):
            if isinstance(c[key], bool) or not isinstance(c[key], int):
                raise wrong(f"villain {name} has {key} {c[key]!r}, not an integer")
        if not isinstance(c["rewards"], list) or not all(isinstance(place, list) for place in c["rewards"]):
            raise wrong(f"villain {name} has rewards {c['rewards']!r}, not a list of token lists")
    return data["villains"]


# What `balance rules avengers-cards` prints for each key: (allowed values, meaning), in plain
# words from the rulebook. Defaults are not repeated here: Rules.describe reads them from the
# dataclass, so they cannot drift; a key without an entry fails tests/test_cli.py.
RULE_DOCS: dict[str, tuple[str, str]] = {
    "players": (
        f"integer 2..{MAX_PLAYERS} (2 only with an explicit hand)",
        "Number of players; each plays one hero's cards. The rulebook covers 3 to 5."),
    "hand": (
        f"list of different card values 1..{MAX_CARD}, at least villains_per_battle of them",
        "The card values every player holds at the start of each battle (all players hold the "
        "same values). The rulebook removes the 1 with 3 players and the 7 with 4 or 5."),
    "battles": (
        "integer 1..20; the villain deck needs villains for every battle",
        "Battles in a game. After each battle every player takes back all its cards and the "
        "first-player card passes clockwise."),
    "villains_per_battle": (
        "integer 1..deck_per_battle, and at most the hand size",
        "Villains fought in each battle; the rest of that battle's shuffled deck is set aside "
        "unseen. Each villain takes one card from every hand."),
    "deck_per_battle": (
        "integer 1..50; must equal the villains per battle in the villain deck",
        "Villain cards in each battle's deck before it is shuffled and cut down to "
        "villains_per_battle."),
    "tokens_per_colour": (
        f"integer 0..{MAX_TOKENS_PER_COLOUR}, at least the tokens dealt at the start",
        "Victory tokens of each colour (yellow, red, blue) in the box. What is not dealt at the "
        "start is the reserve that rewards are taken from; a reward token the reserve cannot pay "
        "is lost, colour by colour (the rest of the reward is still paid: the English rules' "
        "reading of the original's 'he gets nothing')."),
    "start_tokens": (
        f"[Y, R, B], each 0..{MAX_TOKENS_PER_COLOUR}",
        "Tokens of each colour every player starts with."),
    "extra_tokens": (
        f"list of up to {MAX_PLAYERS} [Y, R, B], one per seat from seat 0, each 0..{MAX_TOKENS_PER_COLOUR}",
        "Tokens some seats get on top of start_tokens, e.g. to make up for a seat's "
        "disadvantage; seats not listed get none, and entries past the player count are unused "
        "(one list serves every count). Not in the rulebook."),
    "set_bonus": (
        "integer 0..100",
        "Extra points per set of one yellow, one red and one blue token. Final score = tokens "
        "+ set_bonus x sets; the highest score wins and tied leaders share the win."),
    "ties_cancel": (
        "true, false",
        "true: cards of a value played by two or more players are discarded and do not count "
        "towards the heroes' total or the rewards (they still count as the lowest card when "
        "the villain wins). false: every card counts, and equal cards take their places in "
        "turn order from the battle's first player."),
    "loss_rule": (
        ", ".join(_enum_names(LossRule)),
        "What each player who played the lowest card loses when the villain wins: majority, "
        "all tokens of the colour it holds most of (the rulebook); none, nothing; all, every "
        "token; one, one token of the colour it holds most of."),
    "lost_tokens_to": (
        ", ".join(_enum_names(LostTokensTo)),
        "Where lost tokens go: centre, to the middle of the table, shared out one at a time "
        "among the counted players of the heroes' next victory (the rulebook); reserve, back "
        "to the reserve."),
    "reward_order": (
        ", ".join(_enum_names(RewardOrder)),
        "Who takes the first place's reward when the heroes win: lowest_first, the lowest "
        "counted card (the rulebook), then the next lowest, and so on; highest_first, the "
        "highest card first. The centre is shared out in the same order."),
    "villains": (
        "default, or the path of a JSON file of villain cards",
        "The villain deck: each card's battle, strength and tokens per place. default is the "
        "game's own deck."),
}


def _hand_default() -> str:
    """The hand default in words: it depends on the player count (see _default_hand)."""
    counts: dict = {}
    for n in range(2, MAX_PLAYERS + 1):
        counts.setdefault(_default_hand(n), []).append(str(n))
    parts = [f"{json.dumps(list(hand))} for {' or '.join(ns)} players"
             for hand, ns in counts.items() if hand is not None]
    parts += [f"none for {' or '.join(ns)} players (give hand)" for hand, ns in counts.items() if hand is None]
    return "by player count: " + "; ".join(parts)


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule-variant parameter of the game; defaults are the rulebook. keys and
    from_overrides are RulesBase's; the hand's by-count default, its coercions and to_dict are
    this game's."""

    players: int = 4
    hand: tuple[int, ...] | None = None  # None: by player count (see _default_hand)
    battles: int = 3
    villains_per_battle: int = 4
    deck_per_battle: int = 5
    tokens_per_colour: int = 15
    start_tokens: tuple[int, int, int] = (1, 1, 1)
    extra_tokens: tuple[tuple[int, int, int], ...] = ()  # per seat from seat 0: extra (Y, R, B)
    set_bonus: int = 3
    ties_cancel: bool = True
    loss_rule: str = "majority"
    lost_tokens_to: str = "centre"
    reward_order: str = "lowest_first"
    villains: str = "default"
    _deck: VillainDeck | None = field(default=None, repr=False, compare=False)

    DOCS = RULE_DOCS  # not annotated: a class attribute, not a rules field

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def describe(cls) -> list[dict[str, str]]:
        """Every rules key, in declaration order: rows ``{key, default, allowed, meaning}``.

        ``default`` is written as ``--set KEY=VALUE`` and variant files take it: the JSON of a
        number, bool, word or list is also TOML. The hand's default depends on the player count.
        """
        rulebook = cls()
        rows = []
        for key in cls.keys():
            allowed, meaning = RULE_DOCS[key]
            default = _hand_default() if key == "hand" else json.dumps(getattr(rulebook, key))
            rows.append({"key": key, "default": default, "allowed": allowed, "meaning": meaning})
        return rows

    @classmethod
    def coerce(cls, key: str, value):
        return _coerce(key, value)

    def validated(self) -> "Rules":
        """Check every parameter; return a copy with the villain deck loaded."""
        check_int("players", self.players, 2, MAX_PLAYERS)
        hand = self.resolved_hand_or_none()
        if hand is None:
            raise BalanceError(
                f"players={self.players} needs an explicit hand (e.g. hand=[1,2,3,4,5,6]); "
                "the rulebook covers 3..5 players"
            )
        if not hand:
            raise BalanceError("hand is empty; give at least one card value")
        for v in hand:
            if isinstance(v, bool) or not isinstance(v, int):  # 1.5 is in range, but no card
                raise BalanceError(f"hand: card value {v!r} is not an integer; allowed: integers 1..{MAX_CARD}")
            if not 1 <= v <= MAX_CARD:
                raise BalanceError(f"hand: card value {v!r} is out of range; allowed 1..{MAX_CARD}")
        if len(set(hand)) != len(hand):
            raise BalanceError(f"hand {list(hand)} repeats a value; each card value appears once")
        check_int("battles", self.battles, 1, 20)
        check_int("deck_per_battle", self.deck_per_battle, 1, 50)
        check_int("villains_per_battle", self.villains_per_battle, 1, self.deck_per_battle)
        if self.villains_per_battle > len(hand):
            raise BalanceError(
                f"villains_per_battle={self.villains_per_battle} exceeds the hand of {len(hand)} cards; "
                "each villain takes one card from every hand"
            )
        check_int("tokens_per_colour", self.tokens_per_colour, 0, MAX_TOKENS_PER_COLOUR)
        if len(self.start_tokens) != 3:
            raise BalanceError(f"start_tokens {list(self.start_tokens)} must be 3 numbers (Y, R, B)")
        for n in self.start_tokens:  # the supply itself is checked below, naming both keys
            check_int("start_tokens", n, 0, MAX_TOKENS_PER_COLOUR)
        if len(self.extra_tokens) > MAX_PLAYERS:
            raise BalanceError(
                f"extra_tokens has {len(self.extra_tokens)} entries; give at most {MAX_PLAYERS}, one "
                "[Y, R, B] per seat, seat 0 first"
            )
        for extra in self.extra_tokens:
            if len(extra) != 3:
                raise BalanceError(f"extra_tokens entry {list(extra)} must be 3 numbers (Y, R, B)")
            for n in extra:
                check_int("extra_tokens", n, 0, MAX_TOKENS_PER_COLOUR)
        # canonical: entries past the player count (one list serves every count, as a report's
        # seat levers need) and trailing [0, 0, 0] change no game, so rules playing the same
        # games compare equal (compare warns of identical variants; a report drops such a lever)
        if _seated(self.extra_tokens, self.players) != self.extra_tokens:
            return dataclasses.replace(self, extra_tokens=_seated(self.extra_tokens, self.players)).validated()
        dealt = self.start_array().sum(axis=0)
        if (dealt > self.tokens_per_colour).any():
            raise BalanceError(
                f"start_tokens {list(self.start_tokens)} x {self.players} players plus extra_tokens "
                f"deal {dealt.tolist()}, more than tokens_per_colour={self.tokens_per_colour}"
            )
        check_int("set_bonus", self.set_bonus, 0, 100)
        if not isinstance(self.ties_cancel, bool):
            raise BalanceError(f"ties_cancel={self.ties_cancel!r}; allowed: true, false")
        for key, enum in (("loss_rule", LossRule), ("lost_tokens_to", LostTokensTo), ("reward_order", RewardOrder)):
            value = getattr(self, key)
            if value not in _enum_names(enum):
                raise one_of(key, value, _enum_names(enum))
        deck = load_villains(self.villains)
        for b in range(1, self.battles + 1):
            n = len(deck.in_battle(b))
            if n == 0:
                raise BalanceError(
                    f"battles={self.battles}, but villain deck {deck.name!r} has no villains for "
                    f"battle {b}; give a deck with battles 1..{self.battles}"
                )
            if n != self.deck_per_battle:
                raise BalanceError(
                    f"deck_per_battle={self.deck_per_battle}, but villain deck {deck.name!r} has {n} "
                    f"villains for battle {b}; each battle's deck must have deck_per_battle cards"
                )
        return dataclasses.replace(self, hand=tuple(hand), _deck=deck)

    # ---- views -----------------------------------------------------------------------------
    def resolved_hand_or_none(self) -> tuple[int, ...] | None:
        return tuple(self.hand) if self.hand is not None else _default_hand(self.players)

    @property
    def deck(self) -> VillainDeck:
        assert self._deck is not None, "call validated() first"
        return self._deck

    def start_array(self) -> np.ndarray:
        """Tokens each seat starts with: int64[players, 3] (start_tokens + extra_tokens)."""
        start = np.tile(np.array(self.start_tokens, np.int64), (self.players, 1))
        for seat, extra in enumerate(self.extra_tokens):
            start[seat] += np.array(extra, np.int64)
        return start

    @property
    def max_score(self) -> int:
        """Highest possible score: every token of the game, all in sets."""
        return 3 * self.tokens_per_colour + self.set_bonus * self.tokens_per_colour

    def to_dict(self) -> dict:
        """Every parameter as plain JSON/TOML values (the resolved hand included)."""
        d = {k: getattr(self, k) for k in self.keys()}
        d["hand"] = list(self.resolved_hand_or_none() or [])
        d["start_tokens"] = list(self.start_tokens)
        d["extra_tokens"] = [list(e) for e in self.extra_tokens]
        return d

    def to_kernel(self):
        """Arrays the kernel reads.

        Returns ``(cfg, hand, strength, rewards, n_places, decks, start)``:
        cfg int64[N_CFG] (indexed by ``Cfg``); hand int64[H] ascending card values;
        strength int64[NV]; rewards int64[NV, MAX_PLACES, 3] tokens (Y, R, B) per place;
        n_places int64[NV]; decks int64[battles, deck_per_battle] villain indices;
        start int64[players, 3] tokens each seat starts with.
        """
        deck = self.deck
        cfg = np.zeros(N_CFG, np.int64)
        hand = np.array(sorted(self.hand), np.int64)
        cfg[Cfg.PLAYERS] = self.players
        cfg[Cfg.HAND_SIZE] = len(hand)
        cfg[Cfg.BATTLES] = self.battles
        cfg[Cfg.VILLAINS_PER_BATTLE] = self.villains_per_battle
        cfg[Cfg.DECK_PER_BATTLE] = self.deck_per_battle
        cfg[Cfg.TOKENS_PER_COLOUR] = self.tokens_per_colour
        cfg[Cfg.SET_BONUS] = self.set_bonus
        cfg[Cfg.TIES_CANCEL] = int(self.ties_cancel)
        cfg[Cfg.LOSS_RULE] = LossRule[self.loss_rule.upper()]
        cfg[Cfg.LOST_TOKENS_TO] = LostTokensTo[self.lost_tokens_to.upper()]
        cfg[Cfg.REWARD_ORDER] = RewardOrder[self.reward_order.upper()]
        cfg[Cfg.MAX_SCORE] = self.max_score
        nv = len(deck.ids)
        strength = np.array(deck.strength, np.int64)
        rewards = np.zeros((nv, MAX_PLACES, 3), np.int64)
        n_places = np.zeros(nv, np.int64)
        for i, places in enumerate(deck.rewards):
            n_places[i] = len(places)
            for k, toks in enumerate(places):
                rewards[i, k] = toks
        decks = np.array([deck.in_battle(b) for b in range(1, self.battles + 1)], np.int64)
        return cfg, hand, strength, rewards, n_places, decks, self.start_array()




def _seated(extra: tuple, players: int) -> tuple:
    """extra_tokens as the seats of ``players`` players get them: the entries past the count
    left out, and trailing [0, 0, 0] entries too (seats not listed get none)."""
    extra = tuple(extra[:players])
    while extra and not any(extra[-1]):
        extra = extra[:-1]
    return extra


def _coerce(key: str, value):
    """Turn TOML/CLI values into the field's type; leave range checks to validated()."""
    if key == "extra_tokens":
        if not isinstance(value, (list, tuple)) or not all(isinstance(e, (list, tuple)) for e in value):
            raise BalanceError(f"extra_tokens={value!r} must be a list of [Y, R, B] per seat, e.g. [[1, 0, 0]]")
        return tuple(tuple(e) for e in value)
    if key in ("hand", "start_tokens"):
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, (list, tuple)):
            raise BalanceError(f"{key}={value!r} must be a list of integers, e.g. {key}=[1,2,3]")
        return tuple(value)
    if key == "ties_cancel" and isinstance(value, str):
        if value.lower() in ("true", "false"):
            return value.lower() == "true"
    if key in ("loss_rule", "lost_tokens_to", "reward_order", "villains") and not isinstance(value, str):
        raise BalanceError(f"{key}={value!r} must be a word")
    if key in ("loss_rule", "lost_tokens_to", "reward_order"):
        return value.lower().replace("center", "centre")
    return value
