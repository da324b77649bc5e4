"""Avengers: Infinity War — the card game (Hobby World, 2019; a reskin of Dungeon Busters)."""
from balance.core.game import CAPPED, GameInfo, Kind, Lever

from .tables import TABLES

def first_players(players: int, battles: int) -> str:
    """Who holds the first-player card in which battle: it passes clockwise after each battle
    (rules, "Seat"), from seat 0. 'seat 0 holds the first-player card in battles 1 and 3, seat 1
    in battle 2' at 2 players."""
    leads: dict[int, list[int]] = {}
    for battle in range(battles):
        leads.setdefault(battle % players, []).append(battle + 1)

    def held(battles: list[int]) -> str:
        numbers = " and ".join(", ".join(map(str, battles)).rsplit(", ", 1))
        return f"battle{'s' if len(battles) > 1 else ''} {numbers}"

    first = f"seat 0 holds the first-player card in {held(leads.pop(0))}"
    rest = [f"seat {seat} in {held(b)}" for seat, b in leads.items()]
    return first + (", " + ", ".join(rest[:-1]) + (" and " if len(rest) > 1 else "") + rest[-1] if rest else "")


GAME = GameInfo(
    id="avengers-cards",
    title="Avengers: Infinity War — the card game",
    module=__name__,
    kind=Kind.COMPETITIVE,
    players=(2, 5),  # the rulebook covers 3..5; 2 only with an explicit hand
    explicit_counts=(2,),
    default_strategy="greedy",
    restrictable="card",
    restrictable_rule="hand",
    outcomes=("finished", CAPPED),  # a game always plays all its fights: never capped
    score="points",
    length="fights",
    tables=TABLES,
    restrict_modes=(("always", "removed from the hand"),
                    ("before-last", "not playable before the last villain of a battle")),
    restrict_items="a value of the hand (`balance rules avengers-cards`: hand)",
    restrict_mode_acts=(("before-last", "holding {} back until a battle's last villain",
                         "held back until a battle's last villain"),),
    seat_order=lambda players, rules: first_players(players, rules.get("battles", 3)),
    # handicaps for the seats that lead least: the first-player card passes once per battle, so
    # with the rulebook's 3 battles seats 3 and 4 never hold it (one list serves every count:
    # its entries past the count are unused, and a report leaves out a lever that changes nothing)
    levers=tuple(Lever(name, setting, "seats", what) for name, setting, what in (
        ("no_lead_token", "extra_tokens=[[0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0], [1, 0, 0]]",
         "the seats that never hold the first-player card (seats 3 and 4, with 3 battles) start with one "
         "extra yellow token"),
        ("later_token", "extra_tokens=[[0, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]]",
         "every seat after seat 0 starts with one extra yellow token"),
    )),
)
