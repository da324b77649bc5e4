"""The reference game: state, the primitives every card uses, the turn, scoring and the end.

Written straight from rules/smash-up.md and rules/smash-up-cards.md (section numbers and [Dn]
decisions cited where they decide something). Card abilities live in ``cards/`` (one module per
faction) and base abilities in ``bases.py``; they act on the game only through the methods
here (``destroy``, ``move``, ``return_to_hand``, ``play_minion``, ``choose`` ...).

Every decision goes through ``Game.choose(player, key, options, default)``: ``options`` is the
list of legal choices in a fixed order (the kernel builds the same list), ``default`` the
index the baseline (``greedy``) takes, written from the card's "Default" line. ``random``
draws an index uniformly from the seat's stream (no draw when there is one option).
Decline, where allowed, is ``None`` and always the last option.

Chance (deck and base shuffles, random discards) draws from stream 0 in the order the events
happen.
"""
from __future__ import annotations

from balance.core.rng import PyStream

from . import abilities as ab
from .baseline import greedy_minion, greedy_play, keep_value, place, score_order
from .state import Attached, Card, Minion, Play, Player, Slot

PLAY_ON_BASE = frozenset({"Jammed Signal", "Wildlife Preserve", "Infiltrate", "Block the Path",
                          "Enshrouding Mist", "Flame Trap", "Hideout", "Pay the Piper", "Overrun",
                          "They're Coming To Get You"})
PLAY_ON_MINION = frozenset({"Tooth and Claw...and Guns", "Upgrade", "Assassin", "Poison"})
PLAY_ON_OWN_MINION = frozenset({"Smoke Bomb"})
SPECIAL_ONLY = frozenset({"Hidden Ninja"})  # [D25]: only in a before-scoring window
PLACES = 3


class GameOver(Exception):
    pass


class Game:
    """One game of Smash Up. ``factions``: per seat, its two factions (seat 0 moves first).
    ``removed``: a card name whose every copy is taken out of its owner's deck right after the
    deck's shuffle (card strength by restricted play), or None."""

    def __init__(self, rules, factions, strategies, seed=0, game=0, catalogue=None, removed=None):
        self.rules = rules
        self.removed = removed
        self.n = rules.players
        self.cat = catalogue or rules.catalogue()
        self.strategies = strategies
        self.chance = PyStream(seed, game, 0)
        self.streams = [PyStream(seed, game, 1 + s) for s in range(self.n)]
        self.players = [Player(s, tuple(factions[s])) for s in range(self.n)]
        for pl in self.players:
            pl.vp = self.rules.seat_start_vp(pl.seat)
        self.slots: list[Slot] = []
        self.base_deck: list = []  # top = last
        self.base_discard: list = []
        self.current = 0
        self.turns = 0
        self.entry = 0
        self.uid = 0
        self.log: list = []
        # the cards being played, innermost last: a ``Play`` while a card's own steps run, None
        # while a triggered ability runs inside one (its effects are not the played card's)
        self.plays: list = []
        self.window = None  # the before-scoring window in progress: {"slot", "used"}
        self.winner = None
        self.capped = False
        # Mark of Sleep: target player -> (mode, the player who played it: the mark ends at the
        # start of that player's next turn); mode "actions", "moves", or "actions_on_turn"
        # (2012: no actions, during the target's own turn only)
        self.sleep: dict = {}
        self.base_scores: list = []  # (base name, turn, [vp per seat]) for the report
        self.looking_ahead = False  # a copy on which Mass Enchantment's default tries a card
        self._reset_turn()

    # ---- setup ---------------------------------------------------------------------------------
    def new_card(self, spec, owner) -> Card:
        self.uid += 1
        return Card(self.uid, spec.name, spec.faction, spec.kind, spec.power, owner)

    def setup(self):
        """Decks, bases, opening hands and the mulligan (rules/smash-up.md, Setup)."""
        for pl in self.players:
            pl.deck = [self.new_card(c, pl.seat) for f in pl.factions for c in self.cat.deck(f)]
            self.shuffle(pl.deck)
            # shuffled in, then taken out: the shuffle draws what it draws without the removal
            pl.deck = [c for c in pl.deck if c.name != self.removed]
            pl.dealt = tuple(c.name for c in pl.deck)
        self.base_deck = list(self.cat.bases)
        self.shuffle(self.base_deck)
        for i in range(self.rules.bases_in_play):
            self.slots.append(Slot(self.base_deck.pop(), i))
        for pl in self.players:
            self.draw(pl.seat, self.rules.opening_hand(pl.seat))
            if self.rules.mulligan and not any(c.is_minion for c in pl.hand):
                if self.choose(pl.seat, "mulligan", [True, None], 0):
                    pl.discard.extend(pl.hand)
                    pl.hand = []
                    self.draw(pl.seat, self.rules.opening_hand(pl.seat))
        return self

    # ---- choices and chance ----------------------------------------------------------------
    def choose(self, p, key, options, default=0):
        """The strategy of seat ``p`` picks one of ``options`` (None when there are none)."""
        if not options:
            return None
        if len(options) == 1:
            return options[0]
        i = self.strategies[p].pick(self, p, key, options, default)
        return options[i]

    def may(self, p, key, option, want: bool):
        """A "may" with one way to act: returns ``option`` or None."""
        return self.choose(p, key, [option, None], 0 if want else 1)

    def shuffle(self, cards: list):
        for i in range(len(cards) - 1, 0, -1):
            j = self.chance.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    # ---- reading the board ------------------------------------------------------------------
    def minions(self):
        """Every minion in play, in slot order then arrival order."""
        return [m for s in self.slots for m in s.minions]

    def minions_of(self, p):
        return [m for m in self.minions() if m.controller == p]

    def in_play(self, name, p=None):
        return [m for m in self.minions() if m.name == name and (p is None or m.controller == p)]

    def active(self, slot) -> bool:
        """False while the base's ability is cancelled (Jammed Signal, Infiltrate's talent)."""
        return not slot.cancelled_until and not any(a.card.name == "Jammed Signal" for a in slot.actions)

    def is_microbot(self, m) -> bool:
        return m.name.startswith("Microbot") or bool(self.in_play("Microbot Alpha", m.controller))

    def power(self, m) -> int:
        """Current power, rules/smash-up-cards.md §1.4 (floored at 0 as a total [D11])."""
        total = m.card.power + m.counters + m.temp
        for a in m.attached:
            total += {"Upgrade": 2, "Poison": -4}.get(a.card.name, 0)
        if m.name == "War Raptor":
            total += sum(1 for x in m.slot.minions if x.name == "War Raptor")
        if m.name == "Armor Stego" and m.stego and self.current != m.controller:
            total += 2
        if self.is_microbot(m):
            total += len(self.in_play("Microbot Fixer", m.controller))
        if m.name == "Microbot Alpha":
            total += sum(1 for x in self.minions_of(m.controller) if x is not m)
        if m.slot.name == "The Central Brain" and self.active(m.slot):
            total += 1
        return max(0, total)

    def total_power(self, slot) -> int:
        return sum(self.power(m) for m in slot.minions)

    def player_power(self, p, slot) -> int:
        return sum(self.power(m) for m in slot.minions if m.controller == p)

    def breakpoint(self, slot) -> int:
        return max(0, slot.base.breakpoint - slot.reduction)

    def ready(self, slot) -> bool:
        return self.total_power(slot) >= self.breakpoint(slot)

    def places(self, slot) -> dict:
        """Seat -> place index (0 = first) of every player with a minion on the base.

        A player's place is the number of players with strictly more power there: tied players
        share the best place they tie for and use up the places they occupy (seed 003)."""
        powers = {p: self.player_power(p, slot) for p in range(self.n)
                  if any(m.controller == p for m in slot.minions)}
        return {p: sum(1 for q in powers if powers[q] > powers[p]) for p in powers}

    def vp_now(self, slot) -> list:
        """VP each seat would take from the base's places if it scored now (base VP only)."""
        out = [0] * self.n
        for p, rank in self.places(slot).items():
            if rank < PLACES:
                out[p] = slot.base.vp[rank]
        return out

    def others(self, p):
        """The other seats in turn order after ``p``."""
        return [(p + k) % self.n for k in range(1, self.n)]

    def turn_order(self):
        """Every seat in turn order from the current player."""
        return [(self.current + k) % self.n for k in range(self.n)]

    # ---- protection (§1.3.4) ----------------------------------------------------------------
    def affectable(self, m, by, action: bool) -> bool:
        """Can a card controlled by ``by`` (None: a base) affect minion ``m``?"""
        if by is None:
            return True
        for a in m.attached:
            name = a.card.name
            if name == "Tooth and Claw...and Guns" and by != a.controller:
                return False
            if name == "Smoke Bomb" and action and by != a.controller:
                return False
        if action:
            for a in m.slot.actions:
                if a.card.name == "Wildlife Preserve" and m.controller == a.controller != by:
                    return False
        return True

    def destroyable(self, m, by, action: bool) -> bool:
        """A legal destroy target [D8]: not a Warbot and not protected from the source."""
        return m.name != "Warbot" and self.affectable(m, by, action)

    def protect(self, m):
        """Discard other players' actions already on a minion that became protected [D7]."""
        for a in list(m.attached):
            if not self.affectable(m, a.controller, True):
                self.discard_action(a)

    def can_move(self, p, m, dest) -> bool:
        """May player ``p`` move minion ``m`` to ``dest`` (Mark of Sleep, Hideout)?"""
        if dest is m.slot or self.sleep.get(p, (None,))[0] == "moves":
            return False
        return not any(a.card.name == "Hideout" and a.controller != p and self.rules.tricksters == "current"
                       for a in dest.actions)

    def can_play_actions(self, p) -> bool:
        mode = self.sleep.get(p, (None,))[0]
        return mode != "actions" and not (mode == "actions_on_turn" and self.current == p)

    # ---- cards moving ----------------------------------------------------------------------
    def draw(self, p, k=1):
        pl = self.players[p]
        for _ in range(k):
            if not pl.deck and not self.refill(p):
                return
            pl.hand.append(pl.deck.pop())

    def refill(self, p) -> bool:
        """An empty deck becomes the shuffled discard pile (§1.9); False if both are empty."""
        pl = self.players[p]
        if pl.deck:
            return True
        if not pl.discard:
            return False
        pl.deck, pl.discard = pl.discard, []
        self.shuffle(pl.deck)
        return True

    def top(self, p):
        """The top card of ``p``'s deck (refilled first), or None."""
        return self.players[p].deck[-1] if self.refill(p) else None

    def discard_from_hand(self, p, card):
        self.players[p].hand.remove(card)
        self.players[card.owner].discard.append(card)

    def discard_random(self, p, k):
        hand = self.players[p].hand
        for _ in range(k):
            if not hand:
                return
            self.discard_from_hand(p, hand[self.chance.below(len(hand))])

    def discard_choice(self, p, key):
        """``p`` discards one card of its choice (baseline: the least useful, ``keep_value``)."""
        hand = self.players[p].hand
        if hand:
            default = min(range(len(hand)), key=lambda i: (keep_value(hand[i]), i))
            self.discard_from_hand(p, self.choose(p, key, list(hand), default))

    def discard_action(self, a):
        """An attached action leaves play to its owner's discard pile ("destroyed" for actions)."""
        host = a.host
        (host.attached if isinstance(host, Minion) else host.actions).remove(a)
        self.players[a.card.owner].discard.append(a.card)

    def touch(self, m, by) -> bool:
        """A card controlled by ``by`` (None: a base or a rule) is about to affect minion ``m``
        (§1.3.5 [D6]); False when the 2012 Hideout shields ``m`` (the caller then leaves it
        alone). Only the own steps of the card being played count (``self.plays``): the 2012
        Hideout shields your minions on its base from the first other player's action that
        would affect one of them, for that whole action, and is destroyed instead [D41]; the
        2012 Brownie reads the minions a card affected when its play ends [D30]."""
        play = self.plays[-1] if self.plays else None
        if by is None or play is None:
            return True
        if play.action and m.controller != play.player and self.rules.tricksters == "2012":
            key = (m.controller, m.slot)
            if key in play.shielded:
                return False
            hideout = next((a for a in m.slot.actions
                            if a.card.name == "Hideout" and a.controller == m.controller), None)
            if hideout is not None:
                self.discard_action(hideout)
                play.shielded.add(key)
                self.log.append(("shielded", "Hideout", m.controller))
                return False
        if m not in play.affected:
            play.affected.append(m)
        return True

    def begin_play(self, p, action: bool) -> "Play":
        """A card played by ``p`` starts its own steps (``touch`` records for it)."""
        play = Play(p, action)
        self.plays.append(play)
        return play

    def end_play(self, play):
        """The card's own steps are over: the cards reacting to what it affected (the 2012
        Brownie) react now, before anything else happens after the play."""
        done = self.plays.pop()
        assert done is play, "plays end in the order they began"
        ab.after_affected(self, play.player, play.affected)

    def boost(self, m, by, temp=0, counters=0):
        """Change a minion's power: ``temp`` until the end of the turn, ``counters`` +1 each."""
        if self.touch(m, by):
            m.temp += temp
            m.counters += counters

    def _leave(self, m):
        """Take a minion out of play; its actions go to their owners' discard piles (§1.6)."""
        m.slot.minions.remove(m)
        for a in list(m.attached):
            self.discard_action(a)

    def return_to_hand(self, m, by=None):
        if not self.touch(m, by):
            return
        self._leave(m)
        self.players[m.card.owner].hand.append(m.card)
        self.log.append(("return", m.name, m.controller))

    def to_deck_bottom(self, m, by=None):
        if not self.touch(m, by):
            return
        self._leave(m)
        self.players[m.card.owner].deck.insert(0, m.card)
        self.log.append(("bottom", m.name, m.controller))

    def move(self, m, dest, by=None):
        if not self.touch(m, by):
            return
        m.slot.minions.remove(m)
        dest.minions.append(m)
        m.slot = dest
        self.protect(m)
        self.log.append(("move", m.name, m.controller, dest.name))

    def destroy(self, victims, by, action: bool):
        """Destroy minions together (§1.6, [D19]): replacements first, then triggers."""
        victims = [m for m in victims if m in m.slot.minions and m.name != "Warbot"]
        victims = [m for m in victims if self.touch(m, by)]  # a 2012 Hideout shields some
        archives = {p for p in range(self.n) if self.in_play("Microbot Archive", p)}
        before = self._tar_pits_first(by, [(m, m.slot, self.is_microbot(m)) for m in victims])
        destroyed = []
        for m, slot, microbot in before:
            if m not in slot.minions:
                continue
            if m.name == "Buccaneer" and not m.buccaneer_used and self.sleep.get(m.controller, (None,))[0] != "moves":
                dests = [s for s in self.slots if self.can_move(m.controller, m, s)]
                default = dests.index(place(self, m.controller, m, dests)) if dests else 0
                dest = self.choose(m.controller, "Buccaneer", dests + [None], default)
                if dest is not None:
                    m.buccaneer_used = True
                    self.move(m, dest)
                    continue
            if self._tar_pits_open(slot):
                slot.tar_pits_used = True
                self.to_deck_bottom(m)
                continue
            self._leave(m)
            self.players[m.card.owner].discard.append(m.card)
            destroyed.append((m, slot, microbot))
            self.log.append(("destroy", m.name, m.controller))
        # triggers: base abilities first, then players' cards in turn order (§1.10, [D13]);
        # they are not the destroying card's own steps
        self.plays.append(None)
        for m, slot, _ in destroyed:
            ab.base_after_destroyed(self, m, slot)
        order = self.turn_order()
        pending = sorted(destroyed, key=lambda t: order.index(t[0].card.owner))
        while pending:
            m, slot, microbot = pending.pop(self._next_destroyed(pending, archives))
            if microbot and m.controller in archives:
                self.draw(m.controller)
            ab.after_destroyed(self, m, slot)
        self.plays.pop()
        return [m for m, _, _ in destroyed]

    def _next_destroyed(self, pending, archives) -> int:
        """Whose triggers resolve next among minions destroyed together: each player orders its
        own (§1.10), so when the owner of ``pending[0]`` has two or more with a trigger (Microbot
        Archive's draw, a Nukebot's or a Gremlin's), it picks one (default: the first, the
        victims' order). A minion without a trigger does nothing, so its place does not matter."""
        def triggers(t):
            m, _, microbot = t
            return (microbot and m.controller in archives) or m.name in ab.AFTER_DESTROYED

        owner = pending[0][0].card.owner
        mine = [i for i, t in enumerate(pending) if t[0].card.owner == owner and triggers(t)]
        if len(mine) < 2:
            return 0
        pick = self.choose(owner, "after destroyed: next", [pending[i][0] for i in mine], 0)
        return next(i for i in mine if pending[i][0] is pick)

    def _tar_pits_first(self, by, before):
        """Among victims destroyed together at an unused Tar Pits, the first in the resolving
        player's order is the one replaced [D19]: ``by`` picks it (default: the first chosen);
        it takes the place of the first one there and the others keep their order."""
        tar = [i for i, (m, slot, _) in enumerate(before) if self._tar_pits_open(slot)]
        if by is None or len(tar) < 2:
            return before
        first = self.choose(by, "Tar Pits: first", [before[i][0] for i in tar], 0)
        before.insert(tar[0], before.pop(next(i for i in tar if before[i][0] is first)))
        return before

    def _tar_pits_open(self, slot) -> bool:
        """The slot holds Tar Pits, active and unused this turn."""
        return slot.name == "Tar Pits" and self.active(slot) and not slot.tar_pits_used

    def score_discard(self, m):
        """A minion discarded because its base scored (not destroyed, §1.6)."""
        self._leave(m)
        self.players[m.card.owner].discard.append(m.card)
        ab.after_discarded_from_play(self, m)

    # ---- playing cards ---------------------------------------------------------------------
    def minion_allowed(self, p, card, slot) -> bool:
        """May ``p`` play this minion card on the base (Overrun, Block the Path)?"""
        for a in slot.actions:
            if a.card.name == "Overrun" and a.controller != p:
                return False
            if a.card.name == "Block the Path" and card.faction in a.named:
                return False
        return True

    def play_minion(self, p, card, slot, source="hand"):
        """Put a minion into play and resolve it (§12.1): it enters, its on-play ability
        resolves, then "after a minion is played" triggers."""
        pl = self.players[p]
        if source == "hand":
            pl.hand.remove(card)
        elif source == "discard":
            pl.discard.remove(card)
        elif source == "deck":
            pl.deck.remove(card)
        self.entry += 1
        m = Minion(card, p, slot, self.entry)
        slot.minions.append(m)
        self.protect(m)
        self.minions_played[p] += 1
        if self.in_play_phase and p == self.current:
            self.phase_minions += 1
        self.log.append(("play", card.name, p, slot.name))
        play = self.begin_play(p, False)
        ab.on_play(self, m)
        self.end_play(play)
        self.plays.append(None)  # other cards' abilities, even inside another card's play
        ab.after_minion_played(self, m, slot)
        self.plays.pop()
        return m

    def play_action(self, p, card, source="hand", controller=None):
        """Play an action: a play-on action attaches (host chosen by ``p``), others resolve and go
        to their owner's discard pile. ``controller``: Mass Enchantment plays another's card."""
        c = p if controller is None else controller
        pl = self.players[card.owner]
        if source == "hand":
            pl.hand.remove(card)
        elif source == "deck":
            pl.deck.remove(card)
        self.actions_played[c] += 1
        self.log.append(("action", card.name, c))
        name = card.name
        play = self.begin_play(c, True)
        if name in PLAY_ON_BASE:
            if not self.slots:  # every base scored and none left to replace it: no effect
                return self._no_effect(card, play)
            slot = self.choose(c, name, list(self.slots), ab.host_default(self, c, card, self.slots))
            self.entry += 1
            a = Attached(card, c, slot, self.entry, turn=self.turns)
            slot.actions.append(a)
            ab.on_attach(self, a)
            self.end_play(play)
            return a
        if name in PLAY_ON_MINION or name in PLAY_ON_OWN_MINION:
            hosts = [m for m in self.minions() if self.affectable(m, c, True)
                     and (name not in PLAY_ON_OWN_MINION or m.controller == c)]
            if not hosts:  # nothing to attach to: played, no effect, discarded
                return self._no_effect(card, play)
            host = self.choose(c, name, hosts, ab.host_default(self, c, card, hosts))
            if not self.touch(host, c):  # a 2012 Hideout shields the host: the same
                return self._no_effect(card, play)
            self.entry += 1
            a = Attached(card, c, host, self.entry, turn=self.turns)
            host.attached.append(a)
            ab.on_attach(self, a)
            self.end_play(play)
            return a
        ab.resolve_action(self, c, card)
        self.end_play(play)
        self.players[card.owner].discard.append(card)
        return None

    def _no_effect(self, card, play):
        """A played action that cannot resolve goes to its owner's discard pile."""
        self.players[card.owner].discard.append(card)
        self.end_play(play)

    def attached_anywhere(self):
        """Every action in play: on bases (slot order) then on minions (board order)."""
        return [a for s in self.slots for a in s.actions] + [a for m in self.minions() for a in m.attached]

    # ---- grants and the Play Cards phase (§1.5) -------------------------------------------
    def _reset_turn(self):
        self.free_minion = self.rules.minion_plays
        self.free_action = self.rules.action_plays
        self.grants: list = []  # open minion grants: (kind, slot) kind in M, M2, M@, M0, Mdisc
        self.extra_actions = 0
        self.minions_played = [0] * self.n
        self.actions_played = [0] * self.n
        self.phase_minions = 0
        self.in_play_phase = False
        self.flags: set = set()  # per-turn uses: ("homeworld", p), ("cave", p), ("tenacious",) ...

    def grant_minion(self, p, kind, slot=None):
        """Give ``p`` an extra minion play; outside its Play Cards phase it is used at once or lost."""
        if self.in_play_phase and p == self.current:
            self.grants.append((kind, slot))
            return
        self.grants.append((kind, slot))
        moves = [mv for mv in self.minion_moves(p) if mv[0] != "tenacious"]
        mv = self.choose(p, "extra-now", moves + [None], greedy_minion(self, p, moves) if moves else 0)
        if mv is not None:
            self.do_move(p, mv)
        if (kind, slot) in self.grants:
            self.grants.remove((kind, slot))

    def grant_action(self, p, k=1):
        """Give ``p`` ``k`` extra action plays; outside its Play Cards phase each is used at
        once or lost (§1.5)."""
        if self.in_play_phase and p == self.current:
            self.extra_actions += k
            return
        for _ in range(k):
            if not self.can_play_actions(p):
                return
            cards = [c for c in self.players[p].hand if c.is_action
                     and (c.name not in SPECIAL_ONLY or self.window is not None)]
            default = next((i for i, c in enumerate(cards) if ab.want(self, p, c)), len(cards))
            card = self.choose(p, "extra-action-now", cards + [None], default)
            if card is None:
                return
            self.play_action(p, card)

    def grant_for(self, p, card, slot, from_discard=False):
        """The most restrictive open grant a minion play fits [D12], or None."""
        if from_discard:
            return ("Mdisc", None) if ("Mdisc", None) in self.grants else None
        for kind, s in self.grants:
            if kind == "M@" and s is slot:
                return (kind, s)
        if ("M0", None) in self.grants and not any(m.controller == p for m in slot.minions):
            return ("M0", None)
        if ("M2", None) in self.grants and card.power <= 2:
            return ("M2", None)
        if ("M", None) in self.grants:
            return ("M", None)
        if self.free_minion > 0 and p == self.current and self.in_play_phase:
            return ("free", None)
        return None

    def use_grant(self, g):
        if g[0] == "free":
            self.free_minion -= 1
        else:
            self.grants.remove(g)

    def minion_moves(self, p):
        """Legal minion plays now: (``"hand"``|``"discard"``|``"tenacious"``, card, slot)."""
        pl = self.players[p]
        out = []
        for card in pl.hand:
            if card.is_minion:
                out += [("hand", card, s) for s in self.slots
                        if self.minion_allowed(p, card, s) and self.grant_for(p, card, s)]
        for card in pl.discard:
            if card.is_minion and ("Mdisc", None) in self.grants:
                out += [("discard", card, s) for s in self.slots if self.minion_allowed(p, card, s)]
        if self.in_play_phase and p == self.current and ("tenacious",) not in self.flags:
            for card in pl.discard:
                if card.name == "Tenacious Z":
                    out += [("tenacious", card, s) for s in self.slots if self.minion_allowed(p, card, s)]
                    break  # the copies are alike: one is offered
        return out

    def do_move(self, p, mv):
        """Carry out a play-phase move (see ``play_moves``)."""
        kind = mv[0]
        if kind in ("hand", "discard"):
            _, card, slot = mv
            self.use_grant(self.grant_for(p, card, slot, from_discard=kind == "discard"))
            self.play_minion(p, card, slot, kind)
        elif kind == "tenacious":
            self.flags.add(("tenacious",))
            self.play_minion(p, mv[1], mv[2], "discard")
        elif kind == "action":
            if self.extra_actions > 0:
                self.extra_actions -= 1
            else:
                self.free_action -= 1
            self.play_action(p, mv[1])
        elif kind == "talent":
            ab.use_talent(self, p, mv[1])
        elif kind == "ctgy":  # They're Coming To Get You: the free play or a generic M grant
            _, a, card = mv
            self.use_grant(("M", None) if ("M", None) in self.grants else ("free", None))
            self.flags.add(("ctgy", a.card.uid))
            self.play_minion(p, card, a.host, "discard")

    def play_moves(self, p):
        """Every legal move of the Play Cards phase, in the kernel's order; None ends the phase."""
        moves = self.minion_moves(p)
        pl = self.players[p]
        if (self.free_action > 0 or self.extra_actions > 0) and self.can_play_actions(p):
            moves += [("action", c) for c in pl.hand if c.is_action and c.name not in SPECIAL_ONLY]
        moves += ab.talent_moves(self, p)
        moves += ab.ctgy_moves(self, p)
        return moves + [None]

    def play_phase(self, p):
        self.in_play_phase = True
        for _ in range(200):  # every move spends a card, a grant or a once-per-turn use
            moves = self.play_moves(p)
            mv = self.choose(p, "play", moves, greedy_play(self, p, moves))
            if mv is None:
                break
            self.do_move(p, mv)
        self.in_play_phase = False
        self.grants = []  # unused grants end with the phase (§1.5): none is left for
        self.extra_actions = 0  # a play made at once later in the turn to pick up

    # ---- scoring (smash-up.md step 3, §1.8) ----------------------------------------------
    def score_phase(self):
        while True:
            ready = [s for s in self.slots if self.ready(s)]
            if not ready:
                return
            self.score_base(self.choose(self.current, "score-order", ready, score_order(self, ready)))

    def score_base(self, slot):
        ab.before_scoring_window(self, slot)
        places = self.places(slot)
        active = self.active(slot)
        gained = [0] * self.n
        for p, rank in places.items():
            if rank < PLACES:
                gained[p] += slot.base.vp[rank]
        if active:
            ab.base_scoring_vp(self, slot, places, gained)
        for p in range(self.n):
            self.players[p].vp += gained[p]
        self.base_scores.append((slot.name, self.turns, gained))
        self.log.append(("score", slot.name, tuple(gained)))
        winners = [p for p in self.turn_order() if places.get(p) == 0]
        runners = [p for p in self.turn_order() if places.get(p) == 1]
        choice = None
        if active:
            choice = ab.base_after_scoring(self, slot, winners, runners, places)
        ab.after_scoring_specials(self, slot)
        for m in list(slot.minions):
            self.score_discard(m)
        for a in list(slot.actions):
            self.discard_action(a)
        self.base_discard.append(slot.base)
        i = self.slots.index(slot)
        new = None
        if choice is not None:  # School of Wizardry: the winner's pick
            new = choice
        elif self.base_deck:
            new = self.base_deck.pop()
        if new is None:
            self.slots.pop(i)
            for k, s in enumerate(self.slots):
                s.index = k
            return
        replacement = Slot(new, i)
        self.slots[i] = replacement
        if active:
            ab.base_after_replaced(self, slot, replacement, runners)

    # ---- the turn ------------------------------------------------------------------------
    def start_of_turn(self, p):
        for m in self.minions():
            if m.controller == p:
                m.stego = False
        for q, (mode, by) in list(self.sleep.items()):
            if by == p:
                del self.sleep[q]
        for s in self.slots:
            s.cancelled_until.discard(p)
        ab.start_of_turn(self, p)

    def draw_phase(self, p):
        self.draw(p, self.rules.draw)
        while len(self.players[p].hand) > self.rules.hand_limit:
            self.discard_choice(p, "hand-limit")

    def end_of_turn(self, p):
        ab.end_of_turn(self, p)
        for m in self.minions():
            m.temp = 0
            m.talent_used = False
            m.buccaneer_used = False
        for a in self.attached_anywhere():
            a.talent_used = False
        for s in self.slots:
            s.reduction = 0
            s.tar_pits_used = False
        self._reset_turn()

    def take_turn(self):
        p = self.current
        self.start_of_turn(p)
        self.play_phase(p)
        self.score_phase()
        self.draw_phase(p)
        self.end_of_turn(p)
        self.turns += 1
        best = max(pl.vp for pl in self.players)
        if best >= self.rules.vp_to_win:
            leaders = [pl.seat for pl in self.players if pl.vp == best]
            if len(leaders) == 1:
                self.winner = leaders[0]
                raise GameOver
        if self.turns >= self.rules.max_turns:
            self.capped = True
            raise GameOver
        self.current = (p + 1) % self.n

    def play(self):
        """Play to the end; returns self (``winner`` a seat, or ``capped``)."""
        try:
            while True:
                self.take_turn()
        except GameOver:
            pass
        return self

