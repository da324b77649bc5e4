"""Build a position by hand, for the card tests and the worked examples.

    g = scenario(players=2, bases=["Jungle Oasis", "Tar Pits", "The Homeworld"])
    rex = put(g, 0, "King Rex", 0)            # a minion already in play on slot 0
    beam = hand(g, 1, "Beam Up")              # a card in seat 1's hand
    g.current = 1; g.in_play_phase = True
    g.play_action(1, beam)                    # resolves with seat 1's player's choices

Nothing is shuffled and no card is dealt: decks, hands and discard piles start empty (``deck``
and ``discard`` fill them), so a test sees exactly the cards it placed.
"""
from __future__ import annotations

from ..rules import Rules
from .game import Game
from .players import Greedy
from .state import Attached, Slot

DEFAULT_FACTIONS = [("Aliens", "Dinosaurs"), ("Ninjas", "Pirates"), ("Robots", "Tricksters"),
                    ("Wizards", "Zombies")]


def scenario(players=2, bases=("Jungle Oasis", "Tar Pits", "The Homeworld"), rules=None,
             strategies=None, factions=None, base_deck=()):
    """A game with the named bases in play (slot order) and ``base_deck`` under them (top last)."""
    rules = rules or Rules(players=players)
    cat = rules.catalogue()
    g = Game(rules, factions or DEFAULT_FACTIONS[:rules.players],
             strategies or [Greedy() for _ in range(rules.players)], catalogue=cat)
    by_name = {b.name: b for b in cat.bases}
    g.slots = [Slot(by_name[name], i) for i, name in enumerate(bases)]
    g.base_deck = [by_name[name] for name in base_deck]
    g.in_play_phase = True
    return g


def card(g, p, name):
    """A new card of that name owned by seat ``p`` (any faction of the card list)."""
    for cards in g.cat.factions.values():
        for spec in cards:
            if spec.name == name:
                return g.new_card(spec, p)
    raise KeyError(name)


def put(g, p, name, slot, **fields):
    """A minion already in play (not played: no on-play ability, no trigger)."""
    from .state import Minion  # noqa: PLC0415
    s = g.slots[slot] if isinstance(slot, int) else slot
    g.entry += 1
    m = Minion(card(g, p, name), p, s, g.entry, **fields)
    s.minions.append(m)
    return m


def attach(g, p, name, host, **fields):
    """An action already in play on a base (slot index or Slot) or on a minion."""
    host = g.slots[host] if isinstance(host, int) else host
    g.entry += 1
    fields.setdefault("turn", g.turns)
    a = Attached(card(g, p, name), p, host, g.entry, **fields)
    (host.actions if isinstance(host, Slot) else host.attached).append(a)
    return a


def hand(g, p, *names):
    """Cards into seat ``p``'s hand; returns the last one (or the list when several)."""
    cards = [card(g, p, n) for n in names]
    g.players[p].hand.extend(cards)
    return cards[0] if len(cards) == 1 else cards


def deck(g, p, *names):
    """Cards onto seat ``p``'s deck in order: the last name ends on top."""
    cards = [card(g, p, n) for n in names]
    g.players[p].deck.extend(cards)
    return cards


def discard(g, p, *names):
    cards = [card(g, p, n) for n in names]
    g.players[p].discard.extend(cards)
    return cards
