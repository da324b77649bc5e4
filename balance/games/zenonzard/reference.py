"""The plain-Python oracle of ZENONZARD (``rules/zenonzard.md``, card model v1).

One game of two seats, each with a deck (resolved ``catalogue.Card``s) and two Forces; seat 0
is the first player. Every decision is a choice among legal options listed in a fixed order
(``Decision``), made by the seat's strategy (``strategies.py``): ``random`` draws uniformly
from the seat's stream (slot ``1 + seat``; no draw for a single option); the evaluator policy
decides from the table, drawing only for ``aggression`` strictly between 0 and 1. Chance
(shuffles) draws from stream 0. The numba kernel plays the same games from the same streams.

Zones hold ``Unit``s: a card of the seat's deck (its index in the deck list) or a colourless
mana token (``card == TOKEN``), active or rested. The top of a deck is the end of its list.
"""
from __future__ import annotations

from dataclasses import dataclass, field as dc_field

from balance.core.game import WIN_UNIT
from balance.core.kit import SIDE_STREAM
from balance.core.rng import PyStream

from .catalogue import (BASE, FIELD, K_CHARGE, K_INFILTRATE, K_NO_BLOCK, K_NO_MOVE, K_PIERCE, K_RESURGE,
                        K_REVENGE, K_SWOOP, Card, force_by_name)
from .rules import Rules
from .strategies import RANDOM

TOKEN = -1  # a colourless mana token: no card
PLAYER = -1  # an attack's target: the player (else a Force's index, 0 or 1)

# the ways a game ends (the report's win conditions)
LIFE, DECK_OUT, CAPPED = "life", "deck-out", "capped"


@dataclass
class Unit:
    """A card or token on a field or base. entered: the game turn it came onto the field or
    base from elsewhere; moved_in: the turn it last moved from the base to the field (-1)."""

    card: int
    active: bool = True
    entered: int = 0
    moved_in: int = -1


@dataclass
class Seat:
    deck_cards: list[Card]  # the deck list; every int below indexes it
    force_names: tuple[str, str]
    deck: list[int] = dc_field(default_factory=list)  # top = end
    hand: list[int] = dc_field(default_factory=list)
    field: list[Unit] = dc_field(default_factory=list)
    base: list[Unit] = dc_field(default_factory=list)
    trash: list[int] = dc_field(default_factory=list)
    force_life: list[int] = dc_field(default_factory=list)
    life: int = 0
    rights: int = 0

    def card(self, u: Unit | int) -> Card:
        return self.deck_cards[u.card if isinstance(u, Unit) else u]

    def force_up(self, name: str) -> bool:
        """The Force ``name`` is one of this seat's and not destroyed (v1: Forces are never rested)."""
        return any(n == name and life > 0 for n, life in zip(self.force_names, self.force_life))

    def forces_standing(self) -> list[int]:
        return [i for i in range(2) if self.force_life[i] > 0]


@dataclass
class Result:
    winner: int  # seat, or -1 when capped
    turns: int  # game turns played (both seats' turns counted)
    end: str  # LIFE, DECK_OUT or CAPPED
    life: tuple[int, int]
    forces_destroyed: tuple[int, int]  # per seat, of its own Forces
    sides: tuple[int, ...] = ()  # per seat its Force pair (sides.PAIRS index) when drawn by play_game
    decks: tuple[int, ...] = ()  # per seat its deck's index in the run's decks (decks.run_decks)

    # the game interface's view (balance.core.game): win units, outcome code, length
    @property
    def win_units(self) -> list[int]:
        return [WIN_UNIT if s == self.winner else 0 for s in range(2)]

    @property
    def scores(self) -> None:  # no score: GameInfo.score is None
        return None

    @property
    def outcome(self) -> int:
        return (LIFE, DECK_OUT, CAPPED).index(self.end)

    @property
    def length(self) -> int:
        return self.turns


class GameOver(Exception):
    def __init__(self, winner: int, end: str):
        self.winner, self.end = winner, end


class Game:
    """One game: ``play()`` returns its ``Result``.

    strategies: per seat a ``balance.core.strategy.Strategy`` (``strategies.STRATEGIES``);
    decks: per seat its resolved cards (``decks.generate`` / ``decks.read_list``); forces: per
    seat two Force names (``catalogue.FORCE_NAMES``' values)."""

    def __init__(self, rules: Rules, strategies, decks, forces, seed: int, game: int):
        self.rules = rules
        self.kw = rules.keyword_mask
        self.strategies = list(strategies)
        self.chance = PyStream(seed, game, 0)
        self.streams = [PyStream(seed, game, 1 + s) for s in range(2)]
        lives = force_by_name()
        self.seats = []
        for s in range(2):
            seat = Seat(list(decks[s]), tuple(forces[s]))
            seat.force_life = [lives[n].life for n in seat.force_names]
            seat.life = rules.total_life - sum(seat.force_life)
            seat.deck = list(range(len(seat.deck_cards)))
            self.seats.append(seat)
        self.turn = 0
        self.current = 0

    # ---- chance and choices ----------------------------------------------------------------------
    def shuffle(self, cards: list[int]) -> None:
        """Fisher-Yates from the chance stream (slot 0)."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.chance.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    def choose(self, s: int, n: int, default: int) -> int:
        """Seat ``s`` takes one of ``n`` options: ``random`` draws uniformly (no draw for one
        option), the evaluator takes ``default`` (its policy's index)."""
        if self.strategies[s].info.id == RANDOM:
            return 0 if n == 1 else self.streams[s].below(n)
        return default

    def weight(self, s: int, name: str) -> float:
        st = self.strategies[s]
        return st.values[[p.name for p in st.info.params].index(name)]

    def has(self, card: Card, keyword: int) -> bool:
        return bool(card.keywords & keyword & self.kw)

    # ---- the game ---------------------------------------------------------------------------------
    def play(self) -> Result:
        try:
            self.setup()
            while True:
                self.turn += 1
                if self.rules.turn_cap and self.turn > self.rules.turn_cap:
                    self.turn -= 1
                    return self.result(-1, CAPPED)
                assert self.turn <= self.rules.turn_bound, "a game outlived the deck-out bound"
                self.current = (self.turn - 1) % 2
                self.take_turn(self.current)
        except GameOver as over:
            return self.result(over.winner, over.end)

    def result(self, winner: int, end: str) -> Result:
        return Result(winner, self.turn, end, tuple(s.life for s in self.seats),
                      tuple(sum(1 for x in s.force_life if x <= 0) for s in self.seats))

    def setup(self) -> None:
        """Shuffle both decks, draw the opening hands, then each seat's mulligans (seat 0 first)."""
        r = self.rules
        for seat in self.seats:
            self.shuffle(seat.deck)
            for _ in range(r.opening_hand):
                seat.hand.append(seat.deck.pop())
        for s, seat in enumerate(self.seats):
            for _ in range(r.mulligans):
                back = self.mulligan_choice(s)
                if not back:
                    break
                for c in back:
                    seat.hand.remove(c)
                    seat.deck.append(c)
                self.shuffle(seat.deck)
                for _ in range(len(back)):
                    seat.hand.append(seat.deck.pop())

    def mulligan_choice(self, s: int) -> list[int]:
        """The hand cards ``s`` returns: random flips a coin per card (uniform over subsets);
        the evaluator returns all or none (``strategies``)."""
        seat = self.seats[s]
        if self.strategies[s].info.id == RANDOM:
            return [c for c in list(seat.hand) if self.streams[s].below(2) == 1]
        mana = sum(1 for c in seat.hand if seat.card(c).kind == BASE)
        cheap = sum(1 for c in seat.hand if seat.card(c).kind == FIELD and seat.card(c).cost <= 3)
        return list(seat.hand) if mana == 0 or mana >= 5 or cheap == 0 else []

    def take_turn(self, s: int) -> None:
        r, seat = self.rules, self.seats[s]
        first = self.turn == 1
        # preparation: rights to move, refresh, draw
        seat.rights = 0 if first and not r.first_turn_move else r.moves_per_turn
        if seat.force_up("Pegasus") and len(seat.base) >= 4:
            seat.rights += 1
        for u in seat.field + seat.base:
            u.active = True
        if not first or r.first_turn_draw:
            if not seat.deck:
                raise GameOver(1 - s, DECK_OUT)
            self.draw(s)
        self.mana_phase(s)
        self.main_phase(s)
        # end phase
        if seat.force_up("Phoenix"):
            for u in seat.base:
                u.active = True
        for u in seat.field:
            if seat.force_up("Ouroboros") or self.has(seat.card(u), K_RESURGE):
                u.active = True
        seat.rights = 0

    def draw(self, s: int) -> None:
        """One card from the top of the deck (none from an empty deck); beyond the hand limit
        it goes to the trash."""
        seat = self.seats[s]
        if not seat.deck:
            return
        c = seat.deck.pop()
        (seat.hand if len(seat.hand) < self.rules.hand_max else seat.trash).append(c)

    # ---- mana ---------------------------------------------------------------------------------------
    def need(self, s: int, colour: str) -> int:
        """How many field minions in ``s``'s hand are of ``colour`` (the evaluator's colour need)."""
        seat = self.seats[s]
        return sum(1 for c in seat.hand if seat.card(c).kind == FIELD and colour in seat.card(c).colours)

    def mana_phase(self, s: int) -> None:
        """Options: each base minion in hand (hand order), a colourless mana, nothing."""
        seat = self.seats[s]
        cards = [c for c in seat.hand if seat.card(c).kind == BASE]
        n = len(cards) + 2
        if len(seat.base) >= self.rules.base_max:
            default = n - 1
        elif cards:
            default = max(range(len(cards)), key=lambda i: (
                max(self.need(s, col) for col in seat.card(cards[i]).colours), -i))
        else:
            default = n - 2
        i = self.choose(s, n, default)
        if i == n - 1:
            return
        active = self.rules.mana_enters == "active"
        if i < len(cards):
            seat.hand.remove(cards[i])
            self.put_on_base(s, Unit(cards[i], active, self.turn))
        else:
            self.put_on_base(s, Unit(TOKEN, active, self.turn))

    def put_on_base(self, s: int, unit: Unit) -> None:
        """Onto ``s``'s base; a full base first discards one of its cards (a choice)."""
        seat = self.seats[s]
        if len(seat.base) >= self.rules.base_max:
            self.discard_base(s)
        seat.base.append(unit)

    def discard_base(self, s: int) -> None:
        """Options: each base unit in base order. A card goes to the trash, a token leaves."""
        seat = self.seats[s]
        tokens = [i for i, u in enumerate(seat.base) if u.card == TOKEN]
        if tokens:
            default = tokens[0]
        else:
            default = min(range(len(seat.base)),
                          key=lambda i: (min(self.need(s, col) for col in seat.card(seat.base[i]).colours), i))
        u = seat.base.pop(self.choose(s, len(seat.base), default))
        if u.card != TOKEN:
            seat.trash.append(u.card)

    def mana_colours(self, seat: Seat, u: Unit) -> tuple[str, ...]:
        return ("colorless",) if u.card == TOKEN else seat.card(u).colours

    def payment(self, s: int, card: Card, hand_after: list[int] | None = None) -> list[Unit] | None:
        """The active base units ``s`` rests to pay ``card``'s cost (auto-payment), or None if
        it cannot: the colour part with mana of the card's colour (single-colour mana first,
        then dual, then, under Chimera on its owner's turn, colourless), the free part with
        colourless mana first, then with the colour least needed by the hand as it is, the card
        still in it (dual mana last); within equals, in base order."""
        seat = self.seats[s]
        free = [u for u in seat.base if u.active]
        if len(free) < card.cost:
            return None
        paid: list[Unit] = []
        if card.part > 0:
            cols = [self.mana_colours(seat, u) for u in free]
            single = [u for u, c in zip(free, cols) if len(c) == 1 and c[0] in card.colours]
            dual = [u for u, c in zip(free, cols) if len(c) > 1 and set(c) & set(card.colours)]
            chimera = [u for u, c in zip(free, cols) if c == ("colorless",)] if (
                card.kind == FIELD and s == self.current and seat.force_up("Chimera")) else []
            matching = single + dual + chimera
            if len(matching) < card.part:
                return None
            paid = matching[:card.part]
        rest = [u for u in free if all(u is not p for p in paid)]

        def order(u: Unit):
            cols = self.mana_colours(seat, u)
            kind = 0 if cols == ("colorless",) else (2 if len(cols) > 1 else 1)
            return kind, min(self.need(s, c) for c in cols) if kind else 0

        rest.sort(key=order)  # stable: base order within equal keys
        return paid + rest[:card.cost - card.part]

    # ---- the main phase --------------------------------------------------------------------------------
    def summons(self, s: int, flash: bool) -> list[int]:
        """Hand cards ``s`` may summon now (hand order): field minions it can pay; in a flash
        timing only Swoop minions."""
        seat = self.seats[s]
        return [c for c in seat.hand if seat.card(c).kind == FIELD and (not flash or self.has(seat.card(c), K_SWOOP))
                and self.payment(s, seat.card(c)) is not None]

    def targets(self, s: int, u: Unit) -> list[int]:
        """What unit ``u`` of ``s`` may attack (the player first, then standing Forces), under
        the entry restrictions; [] when it may not attack."""
        r, seat, opp = self.rules, self.seats[s], self.seats[1 - s]
        forces = opp.forces_standing()
        if self.turn == 1 and not r.first_turn_attack:
            return []
        player = True
        card = seat.card(u)
        if not self.has(card, K_CHARGE):
            if u.entered == self.turn:  # not on the field or base at the start of this turn
                if r.new_minion_targets == "force_only":
                    player = False
                elif r.new_minion_targets == "player_if_no_force":
                    player = not forces
            if card.kind == BASE and u.moved_in == self.turn and r.moved_base_minion_targets == "force_while_force":
                player = player and not forces
        return ([PLAYER] if player else []) + forces

    def main_options(self, s: int) -> list[tuple]:
        """Every main-phase option in order: ("summon", card) per summonable hand card, ("up",
        i) per base unit that may move to the field, ("down", i) per field unit that may move
        to the base, ("attack", i, target) per active field unit and target, ("end",)."""
        r, seat = self.rules, self.seats[s]
        out: list[tuple] = [("summon", c) for c in self.summons(s, False)]
        if seat.rights > 0:
            if len(seat.field) < r.field_max:
                out += [("up", i) for i, u in enumerate(seat.base) if self.movable(seat, u)]
            if len(seat.base) < r.base_max:
                out += [("down", i) for i, u in enumerate(seat.field) if self.movable(seat, u)]
        for i, u in enumerate(seat.field):
            if u.active:
                out += [("attack", i, t) for t in self.targets(s, u)]
        return out + [("end",)]

    def movable(self, seat: Seat, u: Unit) -> bool:
        return u.card != TOKEN and not self.has(seat.card(u), K_NO_MOVE)

    def main_phase(self, s: int) -> None:
        while True:
            options = self.main_options(s)
            move = options[self.choose(s, len(options), self.main_default(s, options))]
            if move[0] == "end":
                return
            if move[0] == "summon":
                self.summon(s, move[1])
            elif move[0] == "up":
                self.move_up(s, move[1])
            elif move[0] == "down":
                seat = self.seats[s]
                seat.rights -= 1
                seat.base.append(seat.field.pop(move[1]))
            else:
                self.attack(s, move[1], move[2])

    def move_up(self, s: int, i: int) -> None:
        """Base unit ``i`` to the field (a right to move); Siren adds a rested colourless mana."""
        seat = self.seats[s]
        seat.rights -= 1
        u = seat.base.pop(i)
        u.moved_in = self.turn
        seat.field.append(u)
        if seat.force_up("Siren"):
            seat.base.append(Unit(TOKEN, False, self.turn))

    def summon(self, s: int, c: int) -> None:
        """Pay and summon hand card ``c``; a full field first trashes one of its minions (a choice)."""
        seat = self.seats[s]
        for u in self.payment(s, seat.card(c)):
            u.active = False
        seat.hand.remove(c)
        if len(seat.field) >= self.rules.field_max:
            weakest = min(range(len(seat.field)),
                          key=lambda i: (self.bp(s, seat.field[i]), self.dp(s, seat.field[i]), i))
            seat.trash.append(seat.field.pop(self.choose(s, len(seat.field), weakest)).card)
        seat.field.append(Unit(c, self.rules.summon_enters == "active", self.turn))

    def bp(self, s: int, u: Unit) -> int:
        return self.seats[s].card(u).bp + (100 if self.seats[s].force_up("Cyclops") else 0)

    def dp(self, s: int, u: Unit) -> int:
        card = self.seats[s].card(u)
        return card.dp + (1 if card.cost >= 5 and self.seats[s].force_up("Orthrus") else 0)

    def can_block(self, s: int, blocker: Unit, attacker: Card) -> bool:
        """Unit ``blocker`` of ``s`` may block a minion ``attacker``: active, not "cannot block",
        and Infiltrate respected."""
        card = self.seats[s].card(blocker)
        if not blocker.active or self.has(card, K_NO_BLOCK):
            return False
        if self.has(attacker, K_INFILTRATE):
            return self.rules.infiltrate == "same_cost" and card.cost == attacker.cost
        return True

    # ---- the evaluator's main-phase choice ----------------------------------------------------------
    def main_default(self, s: int, options: list[tuple]) -> int:
        if self.strategies[s].info.id == RANDOM:
            return 0
        seat = self.seats[s]
        summon = self.summon_pick(s, [o[1] for o in options if o[0] == "summon"])
        if summon is not None:
            return options.index(("summon", summon))
        for i, u in enumerate(seat.field):
            targets = [o[2] for o in options if o[0] == "attack" and o[1] == i]
            if targets and self.attack_advised(s, u):
                return options.index(("attack", i, self.target_pick(s, u, targets)))
        if self.weight(s, "ramp") >= 0.5:
            down = [o[1] for o in options if o[0] == "down" and not seat.field[o[1]].active]
            if down:
                return options.index(("down", min(down, key=lambda i: (self.bp(s, seat.field[i]), i))))
        return len(options) - 1

    def summon_pick(self, s: int, cards: list[int]) -> int | None:
        seat = self.seats[s]
        if len(seat.field) >= self.rules.field_max:
            return None
        if self.weight(s, "hold_swoop") >= 0.5:
            swoops = [seat.card(c).cost for c in seat.hand if seat.card(c).kind == FIELD
                      and self.has(seat.card(c), K_SWOOP)]
            if swoops:
                active = sum(1 for u in seat.base if u.active)
                cards = [c for c in cards if not self.has(seat.card(c), K_SWOOP)
                         and active - seat.card(c).cost >= min(swoops)]
        if not cards:
            return None
        return max(cards, key=lambda c: (seat.card(c).cost, seat.card(c).bp, -seat.hand.index(c)))

    def attack_advised(self, s: int, u: Unit) -> bool:
        """The strongest minion that could block ``u`` has at most ``attack_margin`` more BP."""
        opp = self.seats[1 - s]
        card = self.seats[s].card(u)
        blockers = [self.bp(1 - s, b) for b in opp.field if self.can_block(1 - s, b, card)]
        return not blockers or max(blockers) - self.bp(s, u) <= self.weight(s, "attack_margin")

    def target_pick(self, s: int, u: Unit, targets: list[int]) -> int:
        opp = self.seats[1 - s]
        dp = self.dp(s, u)
        forces = [t for t in targets if t != PLAYER]
        if PLAYER in targets:
            if not forces or self.player_damage(1 - s, dp) >= opp.life:
                return PLAYER
            a = self.weight(s, "aggression")
            if a >= 1 or (a > 0 and self.streams[s].below(1000) < round(1000 * a)):
                return PLAYER
        killed = [t for t in forces if opp.force_life[t] <= dp]
        if killed:
            return max(killed, key=lambda t: (opp.force_life[t], -t))
        return min(forces, key=lambda t: (opp.force_life[t], t))

    def player_damage(self, s: int, dp: int) -> int:
        """DP damage a minion deals to player ``s`` (Minotaur: one less, never below 0)."""
        return max(0, dp - 1) if self.seats[s].force_up("Minotaur") else dp

    # ---- an attack --------------------------------------------------------------------------------------
    def attack(self, s: int, i: int, target: int) -> None:
        """Declare (rest the attacker), flash timing, block, resolve (``rules/zenonzard.md``, Attack)."""
        seat, d = self.seats[s], 1 - s
        attacker = seat.field[i]
        attacker.active = False
        self.flash(s, attacker)
        if all(u is not attacker for u in seat.field):
            return  # the attacker left the field: the attack ends
        blocker = self.block(d, s, attacker, target)
        self.resolve(s, attacker, target, blocker)

    def flash(self, s: int, attacker: Unit) -> None:
        """The defender first, then alternately: summon one Swoop minion or pass, until both
        pass in a row or the attacker leaves the field. Options: each Swoop minion in hand it
        can pay (hand order), pass."""
        q, passes = 1 - s, 0
        while passes < 2:
            cards = self.summons(q, True)
            default = len(cards)
            if q != s and self.strategies[q].info.id != RANDOM and len(self.seats[q].field) < self.rules.field_max:
                seat, a_card, a_bp = self.seats[q], self.seats[s].card(attacker), self.bp(s, attacker)
                winners = [k for k, c in enumerate(cards)
                           if self.bp(q, Unit(c)) > a_bp and self.can_block(q, Unit(c), a_card)]
                if winners:
                    default = min(winners, key=lambda k: (seat.card(cards[k]).cost, k))
            k = self.choose(q, len(cards) + 1, default)
            if k == len(cards):
                passes += 1
            else:
                passes = 0
                self.summon(q, cards[k])
                if all(u is not attacker for u in self.seats[s].field):
                    return  # the attacker left the field: the flash timing stops at once (the original's wording)
            q = 1 - q

    def block(self, d: int, s: int, attacker: Unit, target: int) -> Unit | None:
        """Defender ``d`` rests a blocker or not. Options: each eligible field unit (field
        order), no block."""
        seat = self.seats[d]
        a_card = self.seats[s].card(attacker)
        cands = [u for u in seat.field if self.can_block(d, u, a_card)]
        default = len(cands)
        if cands and self.strategies[d].info.id != RANDOM:
            a_bp = self.bp(s, attacker)
            revenge = self.has(a_card, K_REVENGE)
            wins = [k for k, u in enumerate(cands) if self.bp(d, u) > a_bp and not revenge]
            trades = [k for k, u in enumerate(cands) if self.bp(d, u) == a_bp and self.rules.tie_destroys_both
                      and seat.card(u).cost <= a_card.cost]
            damage = self.player_damage(d, self.dp(s, attacker)) if target == PLAYER else 0
            if wins:
                default = min(wins, key=lambda k: (seat.card(cands[k]).cost, self.bp(d, cands[k]), k))
            elif trades:
                default = trades[0]
            elif target == PLAYER and (damage >= seat.life or damage >= self.weight(d, "block_margin")) and damage > 0:
                default = min(range(len(cands)), key=lambda k: (self.bp(d, cands[k]), k))
        k = self.choose(d, len(cands) + 1, default)
        if k == len(cands):
            return None
        cands[k].active = False
        return cands[k]

    def resolve(self, s: int, attacker: Unit, target: int, blocker: Unit | None) -> None:
        r, d = self.rules, 1 - s
        a_card = self.seats[s].card(attacker)
        dp = self.dp(s, attacker)
        pierce = self.has(a_card, K_PIERCE) and r.pierce != "off"
        if blocker is None:
            self.damage(s, d, target, dp, pierce)
            return
        a_bp, b_bp = self.bp(s, attacker), self.bp(d, blocker)
        a_dies = a_bp < b_bp or (a_bp == b_bp and r.tie_destroys_both)
        b_dies = b_bp < a_bp or (a_bp == b_bp and r.tie_destroys_both) or self.has(a_card, K_REVENGE)
        b_dp = self.dp(d, blocker)
        if a_dies:
            self.destroy(s, attacker)
        if b_dies:
            self.destroy(d, blocker)
        if pierce and b_dies and not a_dies:
            self.damage(s, d, target, max(0, dp - b_dp) if r.pierce == "dp_difference" else dp, True)

    def destroy(self, s: int, u: Unit) -> None:
        seat = self.seats[s]
        seat.field.remove(u)
        seat.trash.append(u.card)

    def damage(self, s: int, d: int, target: int, amount: int, pierce: bool) -> None:
        """A minion of ``s`` deals ``amount`` DP damage to ``d``'s ``target``: the player (Minotaur
        applies), or a Force (destroyed at 0; what is beyond its life goes to the player with
        Pierce or ``force_overflow = to_player``, else is lost)."""
        seat = self.seats[d]
        if target == PLAYER:
            seat.life -= self.player_damage(d, amount)
        else:
            life = seat.force_life[target]
            seat.force_life[target] = max(0, life - amount)
            if seat.force_life[target] == 0:
                self.force_destroyed(d)
            over = amount - life
            if over > 0 and (pierce or self.rules.force_overflow == "to_player"):
                seat.life -= self.player_damage(d, over)
        if seat.life <= 0:
            raise GameOver(s, LIFE)

    def force_destroyed(self, d: int) -> None:
        """On destroy: the first base minion from the top of the deck onto the base, shuffle, draw 1."""
        seat = self.seats[d]
        for k in range(len(seat.deck) - 1, -1, -1):
            if seat.card(seat.deck[k]).kind == BASE:
                c = seat.deck.pop(k)
                self.put_on_base(d, Unit(c, self.rules.force_tutor_enters == "active", self.turn))
                break
        self.shuffle(seat.deck)
        self.draw(d)


def play_decks(rules: Rules, strategies, decks, forces, seed: int = 0, game: int = 0) -> Result:
    """One game with the given decks and Forces (``Game``; see there for the arguments)."""
    return Game(rules, strategies, decks, forces, seed, game).play()


def play_game(rules: Rules, strategies, seed: int, game: int, sides=None) -> Result:
    """Game ``game`` of a run with ``seed`` as the engine plays it: each seat's Force pair and
    deck from ``sides`` (side texts, ``sides.parse_side``) or drawn from the game's side stream
    (both pairs, then both decks, drawn whether used or not; ``rules.mirror_decks``: seat 1
    plays seat 0's deck)."""
    from .decks import run_decks
    from .sides import FORCES, PAIRS, Side, read_side

    parsed = [read_side(t) for t in sides] if sides is not None else [Side(None, None)] * 2
    decks, n_drawn, given = run_decks(rules, parsed)
    stream = PyStream(seed, game, SIDE_STREAM)
    pairs = [stream.below(len(PAIRS)) for _ in range(2)]
    pairs = [p if side.pair is None else side.pair for p, side in zip(pairs, parsed)]
    chosen = []
    for s in range(2):
        d = stream.below(n_drawn) if n_drawn > 0 else 0
        chosen.append(given[s] if given[s] >= 0 else chosen[0] if rules.mirror_decks and s == 1 else d)
    forces = [[FORCES[i] for i in PAIRS[p]] for p in pairs]
    result = play_decks(rules, strategies, [decks[d].cards for d in chosen], forces, seed, game)
    result.sides, result.decks = tuple(pairs), tuple(chosen)
    return result


def chance_draws(record, players: int) -> list[list]:
    """Each seat's drawn Force pair and deck in a game ``record`` (what play_game returns): what
    no other seat's strategy may move. Later draws are not: the seats' shuffles share the
    chance stream, in the order play reaches them."""
    return [[(record.sides[p], record.decks[p])] for p in range(players)]
