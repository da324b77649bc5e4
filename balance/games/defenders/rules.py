"""Rules of Defenders of the Realm: every [decision] of the spec as a parameter, validated.

Defaults are ``rules/defenders-of-the-realm.md`` ("Rule-variant parameters"). The spec's
``heroes`` (how many seats) is the generic ``players`` key; which heroes the seats play are
their sides (``--side``), drawn from ``hero_pool`` when not given.
"""
from __future__ import annotations

from dataclasses import dataclass

from balance.core.errors import BalanceError, check_int, one_of
from balance.core.rulebook import RulesBase

from .catalogue import GENERALS, HEROES, MINION_TO_HIT, RULES_HEROES

# bump when the games a seed plays change: runs record it (tests/test_golden.py)
RULES_VERSION = "defenders-of-the-realm/3"
MIN_PLAYERS, MAX_PLAYERS = 1, 4
SUPPLY_LOSS = ("direct", "any")
PATROL_TARGETS = ("empty", "no_orc")
WOUND_CHECKS = ("end_of_day", "end_of_turn")
GROUP_SCOPES = ("present", "committed")
PENALTY_ROLLS = ("per_hero", "shared")
MONARCH_CARDS = ("spread", "nothing")
PARRY_SCOPES = ("pool", "own")
AMBUSH_SCOPES = ("first", "every")
MAX_TURN_CAP = 2000

DOCS: dict[str, tuple[str, str]] = {
    "players": (f"integer {MIN_PLAYERS}..{MAX_PLAYERS}", "Heroes in the team (the spec's `heroes`), one seat each, "
                "seat 0 first."),
    "hero_pool": ("list of " + ", ".join(HEROES), "The heroes a seat's hero is drawn from (distinct per game) when "
                  "--side does not fix it; also the replacements after a death."),
    "minions_per_colour": ("integer 5..100", "Minions of each colour in the supply."),
    "taint_crystals": ("integer 2..50", "Taint crystals; placing the last one loses the game."),
    "gate_tokens": ("integer 1..20", "Magic gate tokens (the starting gate on Dancing Stone is one of them)."),
    "start_taint": ("integer 0..6", "Taint crystals on Scorpion Canyon (Balazarg's start) at setup."),
    "location_cap": ("integer 2..6", "Minions a location holds before a new one overruns it."),
    "monarch_city_limit": ("integer 1..20", "Minions in Monarch City that lose the game."),
    "demon_taint_at": ("integer 1..6", "Demons at a location that place a taint crystal there when reached."),
    "general_to_hit": ("4 integers 2..6", "To-hit of " + ", ".join(GENERALS) + " (default: their race's number)."),
    "serious_zone": ("4 integers 0..6", "A general's life at or below which it is in its serious zone (0: never), "
                     "in the order " + ", ".join(GENERALS) + "."),
    "war_cards": ("3 integers 0..6", "Darkness cards drawn each night in Early, Mid and Late War."),
    "late_war_after": ("integer 1..4", "Slain generals that bring Late War (Mid War from the first)."),
    "overrun_per_instruction": ("true or false", "One overrun per Darkness instruction (false: one per excess "
                                "minion)."),
    "supply_loss_scope": (" / ".join(SUPPLY_LOSS), "An empty minion supply loses the game when a Darkness card "
                          "needs a minion (direct), or also when an overrun spread does (any)."),
    "orc_patrol_target": (" / ".join(PATROL_TARGETS), "Orc Patrols put an orc on every green location holding no "
                          "minion (empty) or no orc (no_orc)."),
    "wound_check": (" / ".join(WOUND_CHECKS), "When minions at a hero's location wound it: after its day's last "
                    "action, or at the end of its turn (after the night)."),
    "group_scope": (" / ".join(GROUP_SCOPES), "Who joins a combat with a general: every hero at the location, or "
                    "only those committing a card."),
    "penalty_roll": (" / ".join(PENALTY_ROLLS), "A failed combat's penalty dice are rolled for each hero, or once "
                     "for the group."),
    "start_hand": ("integer 0..10", "Hero cards each hero starts with (and a replacement hero gets)."),
    "evening_draw": ("integer 0..6", "Hero cards drawn each evening."),
    "hand_limit": ("integer 1..30", "Hero cards a hero may keep after the evening draw."),
    "rumor_actions": ("integer 0..6", "Rumors at the Inn actions a hero may take in one day."),
    "rumor_draw": ("integer 1..10", "Cards one Rumors action draws (the Rogue always draws 5)."),
    "slain_reward_cards": ("integer 0..10", "Hero cards every participant draws when a general is slain."),
    "heal_elsewhere": ("integer 0..6", "Life Heal Wounds gives outside Monarch City and the inns."),
    "natural_one_misses": ("true or false", "A die showing 1 always misses, whatever the modifiers."),
    "heal_land_with_minions": ("true or false", "Heal the Land is allowed where enemy minions stand (the rules do "
                               "not forbid it)."),
    "fireball_action": ("true or false", "The Wizard's Fireball costs an action."),
    "wound_limits_actions": ("true or false", "A wound taken during the day leaves the hero no more actions than "
                             "its life."),
    "monarch_card": (" / ".join(MONARCH_CARDS), "The Monarch City Darkness card: a minion of each colour next to "
                     "the city into it, then both decks reshuffled (spread); or nothing."),
    "parry_scope": (" / ".join(PARRY_SCOPES), "Gorgutt's parry: the 1s cancel hits of the same and later "
                    "participants (pool), or only their roller's own."),
    "ambush_scope": (" / ".join(AMBUSH_SCOPES), "The Sorceress' Ambush bonus: her first attack of the turn on her "
                     "shape's colour, or every one."),
    "undead_form_fear": ("true or false", "The Sorceress in undead shape still takes the fear wound."),
    "quests": ("false", "Quests are not simulated: the data hold no quest cards."),
    "turn_cap": (f"integer 1..{MAX_TURN_CAP}", "Hero turns after which a stalled game ends as the 'capped' "
                 "outcome."),
}


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule-variant parameter of Defenders of the Realm; defaults are the spec's rules."""

    DOCS = DOCS

    players: int = 4
    hero_pool: tuple[str, ...] = RULES_HEROES
    minions_per_colour: int = 25
    taint_crystals: int = 12
    gate_tokens: int = 5
    start_taint: int = 1
    location_cap: int = 3
    monarch_city_limit: int = 5
    demon_taint_at: int = 3
    general_to_hit: tuple[int, ...] = MINION_TO_HIT
    serious_zone: tuple[int, ...] = (1, 2, 0, 0)
    war_cards: tuple[int, ...] = (1, 2, 3)
    late_war_after: int = 3
    overrun_per_instruction: bool = True
    supply_loss_scope: str = "direct"
    orc_patrol_target: str = "empty"
    wound_check: str = "end_of_day"
    group_scope: str = "present"
    penalty_roll: str = "per_hero"
    start_hand: int = 2
    evening_draw: int = 2
    hand_limit: int = 10
    rumor_actions: int = 2
    rumor_draw: int = 2
    slain_reward_cards: int = 3
    heal_elsewhere: int = 2
    natural_one_misses: bool = True
    heal_land_with_minions: bool = True
    fireball_action: bool = True
    wound_limits_actions: bool = True
    monarch_card: str = "spread"
    parry_scope: str = "pool"
    ambush_scope: str = "first"
    undead_form_fear: bool = False
    quests: bool = False
    turn_cap: int = 400

    def validated(self) -> "Rules":
        """Check every parameter (one-line BalanceError naming the value and what is allowed)."""
        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        if not isinstance(self.hero_pool, tuple) or not self.hero_pool:
            shown = list(self.hero_pool) if isinstance(self.hero_pool, tuple) else self.hero_pool
            raise BalanceError(f"hero_pool={shown!r}: give a list of heroes from {', '.join(HEROES)}")
        for h in self.hero_pool:
            if h not in HEROES:
                raise one_of("hero", h, HEROES)
        if len(set(self.hero_pool)) != len(self.hero_pool):
            raise BalanceError(f"hero_pool={list(self.hero_pool)} names a hero twice; name each at most once")
        if len(self.hero_pool) < self.players:
            raise BalanceError(f"hero_pool has {len(self.hero_pool)} heroes for {self.players} players; "
                               f"a team needs distinct heroes: give at least {self.players}")
        check_int("minions_per_colour", self.minions_per_colour, 5, 100)
        check_int("taint_crystals", self.taint_crystals, 2, 50)
        check_int("gate_tokens", self.gate_tokens, 1, 20)
        check_int("start_taint", self.start_taint, 0, 6)
        if self.start_taint >= self.taint_crystals:
            raise BalanceError(f"start_taint={self.start_taint} places every crystal of taint_crystals="
                               f"{self.taint_crystals} at setup; allowed: 0..{self.taint_crystals - 1}")
        check_int("location_cap", self.location_cap, 2, 6)
        check_int("monarch_city_limit", self.monarch_city_limit, 1, 20)
        check_int("demon_taint_at", self.demon_taint_at, 1, 6)
        for key, n, low, high in (("general_to_hit", 4, 2, 6), ("serious_zone", 4, 0, 6), ("war_cards", 3, 0, 6)):
            value = getattr(self, key)
            if not isinstance(value, tuple) or len(value) != n:
                shown = list(value) if isinstance(value, tuple) else value  # as the user wrote it: [1, 2]
                raise BalanceError(f"{key}={shown!r}: give {n} integers {low}..{high}")
            for v in value:
                check_int(key, v, low, high)
        check_int("late_war_after", self.late_war_after, 1, 4)
        for key in ("overrun_per_instruction", "natural_one_misses", "quests", "heal_land_with_minions",
                    "fireball_action", "wound_limits_actions", "undead_form_fear"):
            if not isinstance(getattr(self, key), bool):
                raise BalanceError(f"{key}={getattr(self, key)!r} is not true or false")
        if self.quests:
            raise BalanceError("quests=true: quests are not simulated (the data hold no quest cards); allowed: false")
        for key, allowed in (("supply_loss_scope", SUPPLY_LOSS), ("orc_patrol_target", PATROL_TARGETS),
                             ("wound_check", WOUND_CHECKS), ("group_scope", GROUP_SCOPES),
                             ("penalty_roll", PENALTY_ROLLS), ("monarch_card", MONARCH_CARDS),
                             ("parry_scope", PARRY_SCOPES), ("ambush_scope", AMBUSH_SCOPES)):
            if getattr(self, key) not in allowed:
                raise one_of(key.replace("_", " "), getattr(self, key), allowed)
        check_int("start_hand", self.start_hand, 0, 10)
        check_int("evening_draw", self.evening_draw, 0, 6)
        check_int("hand_limit", self.hand_limit, 1, 30)
        check_int("rumor_actions", self.rumor_actions, 0, 6)
        check_int("rumor_draw", self.rumor_draw, 1, 10)
        check_int("slain_reward_cards", self.slain_reward_cards, 0, 10)
        check_int("heal_elsewhere", self.heal_elsewhere, 0, 6)
        check_int("turn_cap", self.turn_cap, 1, MAX_TURN_CAP)
        return self

    @property
    def pool(self) -> tuple[int, ...]:
        """The hero pool as indices into ``catalogue.HEROES``, in the rules' order."""
        return tuple(HEROES.index(h) for h in self.hero_pool)
