"""The reference engine's state: plain objects, one game at a time (slow, obvious, the oracle).

Conventions the kernel mirrors exactly (its arrays follow the same orders):
- a deck's top card is the **last** element of its list (``pop()`` draws), the bottom is index 0;
- a base's minions and attached actions are kept in arrival order, bases in slot order;
- every card in play carries ``entered``, a game-wide arrival counter (start-of-turn abilities
  resolve in entry order, rules/smash-up-cards.md §1.7).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False)
class Card:
    """A physical card: ``uid`` is unique in the game; ``power`` is the printed power."""

    uid: int
    name: str
    faction: str
    kind: str  # minion | action | dual (Pixie)
    power: int | None
    owner: int

    @property
    def is_minion(self) -> bool:  # out of play a dual card is both (§7.5, [D20])
        return self.kind != "action"

    @property
    def is_action(self) -> bool:
        return self.kind != "minion"

    def __repr__(self) -> str:
        return f"{self.name}#{self.uid}"


@dataclass(eq=False)
class Attached:
    """An action in play, on a base (``host`` a Slot) or on a minion (``host`` a Minion)."""

    card: Card
    controller: int
    host: object
    entered: int
    talent_used: bool = False
    named: tuple = ()  # Block the Path: the factions it names
    turn: int = -1  # the turn it was played (Assassin fires at the end of that turn only)


@dataclass(eq=False)
class Minion:
    card: Card
    controller: int
    slot: "Slot"
    entered: int
    counters: int = 0  # +1 power counters (Pixie)
    temp: int = 0  # until-end-of-turn bonuses (Augmentation, Howl, Swashbuckling)
    attached: list = field(default_factory=list)
    talent_used: bool = False
    stego: bool = False  # Armor Stego's talent: +2 on other players' turns until the start of yours
    buccaneer_used: bool = False  # Buccaneer's once-per-turn move instead of destruction

    @property
    def name(self) -> str:
        return self.card.name

    def __repr__(self) -> str:
        return f"{self.card.name}#{self.card.uid}@p{self.controller}"


@dataclass(eq=False)
class Slot:
    """A base in play and what is on it."""

    base: object  # catalogue.Base
    index: int
    minions: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    reduction: int = 0  # breakpoint reduction until the end of the turn (Rampage, Flame Trap)
    tar_pits_used: bool = False  # Tar Pits' first destruction this turn, counted for the base
    cancelled_until: set = field(default_factory=set)  # Infiltrate: players whose turn start ends it

    @property
    def name(self) -> str:
        return self.base.name

    def __repr__(self) -> str:
        return f"[{self.index}]{self.base.name}"


@dataclass(eq=False)
class Player:
    seat: int
    factions: tuple
    deck: list = field(default_factory=list)  # top = last
    hand: list = field(default_factory=list)
    discard: list = field(default_factory=list)
    vp: int = 0
    dealt: tuple = ()  # the deck's card names as setup shuffled it, top last (chance alone chose it)


@dataclass(eq=False)
class Play:
    """A card's own steps in progress (``Game.begin_play``): who plays it, whether it is an
    action, the minions its steps affected so far (first time each), and the (player, slot)
    pairs a 2012 Hideout shields from the rest of it."""
    player: int
    action: bool
    affected: list = field(default_factory=list)
    shielded: set = field(default_factory=set)
