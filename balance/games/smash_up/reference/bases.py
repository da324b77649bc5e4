"""Base abilities (rules/smash-up-cards.md §11). Jungle Oasis has none; Tar Pits' replacement
is in ``Game.destroy`` and The Central Brain's +1 in ``Game.power``. A cancelled base (Jammed
Signal, Infiltrate) is never asked (``abilities._base_hook`` and ``Game.score_base`` check).

The Homeworld offers its extra minion after every minion played there (a card drawn later in
the phase may use it, §1.5); the baseline takes it when holding a minion of printed power 2 or
less (§11.1 Default).
"""
from __future__ import annotations

from . import abilities as ab
from .baseline import V, gap, place


class Base:
    pass


def _best_printed(cards_or_minions):
    """Index of the highest printed power (ties: the first)."""
    powers = [(x.card if hasattr(x, "card") else x).power for x in cards_or_minions]
    return max(range(len(powers)), key=lambda i: (powers[i], -i))


class Homeworld(Base):
    def after_played(self, g, slot, m):
        p = m.controller
        if ("homeworld", p) in g.flags and not g.rules.homeworld_each_time:
            return
        holding = any(c.is_minion and c.power <= 2 for c in g.players[p].hand)
        if g.may(p, "The Homeworld", True, holding):
            g.flags.add(("homeworld", p))  # once per player per turn [D16]
            g.grant_minion(p, "M2")  # any base [D31]


class Mothership(Base):
    def after_scoring(self, g, slot, winners, runners, places):
        for p in winners:
            mine = [m for m in slot.minions if m.controller == p and g.power(m) <= 3]
            if mine:
                m = g.choose(p, "The Mothership", mine + [None], _best_printed(mine))
                if m is not None:
                    g.return_to_hand(m)


class NinjaDojo(Base):
    def after_scoring(self, g, slot, winners, runners, places):
        from .baseline import hit  # noqa: PLC0415
        for p in winners:  # any minion in play, this base included [D34]
            targets = [m for m in g.minions() if g.destroyable(m, None, False)]
            elsewhere = [m for m in targets if m.slot is not slot]
            pick = hit(g, p, elsewhere)
            default = targets.index(elsewhere[pick]) if pick is not None else len(targets)
            m = g.choose(p, "Ninja Dojo", targets + [None], default)
            if m is not None:
                g.destroy([m], None, False)


class TempleOfGoju(Base):
    def after_scoring(self, g, slot, winners, runners, places):
        for p in g.turn_order():
            mine = [m for m in slot.minions if m.controller == p]
            if not mine:
                continue
            top = max(g.power(m) for m in mine)
            tied = [m for m in mine if g.power(m) == top]
            # tie: the owner picks [D33]; baseline: no after-scoring Special, then lowest printed
            default = min(range(len(tied)), key=lambda i: (tied[i].name in ab.AFTER, tied[i].card.power, i))
            g.to_deck_bottom(g.choose(p, "Temple of Goju", tied, default))


class GreyOpal(Base):
    def after_scoring(self, g, slot, winners, runners, places):
        others = [s for s in g.slots if s is not slot]  # not the replacement [D35]
        for p in g.turn_order():
            if p in winners:
                continue
            mine = [m for m in slot.minions if m.controller == p]
            options = [(m, s) for m in mine for s in others if g.can_move(p, m, s)]
            if not options:
                continue
            best = max(mine, key=lambda m: (g.power(m), -m.entered))
            dests = [s for (m, s) in options if m is best]
            default = len(options)
            if dests:
                default = options.index((best, place(g, p, best, dests)))
            pick = g.choose(p, "The Grey Opal", options + [None], default)
            if pick is not None:
                g.move(pick[0], pick[1], p)


class Tortuga(Base):
    def after_replaced(self, g, old, new, runners):
        for p in runners:
            options = [m for m in g.minions() if m.controller == p and m.slot is not new
                       and g.can_move(p, m, new)]
            if not options:
                continue
            free = [i for i, m in enumerate(options)
                    if _vp_without(g, p, m) == g.vp_now(m.slot)[p]]
            default = max(free, key=lambda i: (g.power(options[i]), -i)) if free else len(options)
            m = g.choose(p, "Tortuga", options + [None], default)
            if m is not None:
                g.move(m, new, p)


def _vp_without(g, p, m):
    """``p``'s vp_now at ``m``'s base if ``m`` were gone."""
    slot = m.slot
    i = slot.minions.index(m)
    slot.minions.pop(i)
    vp = g.vp_now(slot)[p]
    slot.minions.insert(i, m)
    return vp


class Factory(Base):
    def scoring_vp(self, g, slot, places, gained):
        for p, place_ in places.items():
            if place_ == 0:
                gained[p] += g.player_power(p, slot) // 5


class CaveOfShinies(Base):
    def after_destroyed(self, g, slot, m):
        owner = m.card.owner
        if g.rules.trickster_bases == "current":
            if ("cave", owner) in g.flags:  # once per turn per owner [D16]
                return
            g.flags.add(("cave", owner))
        g.players[owner].vp += 1
        g.log.append(("vp", owner, 1, "Cave of Shinies"))


class MushroomKingdom(Base):
    def start_of_turn(self, g, slot, p):
        if g.rules.trickster_bases == "current":
            hands = [len(pl.hand) for pl in g.players]
            if not all(hands[p] > hands[q] for q in range(g.n) if q != p):  # strictly more [D32]
                return
            others = [s for s in g.slots if s is not slot]
            options = [(m, s) for m in slot.minions for s in others if g.can_move(p, m, s)]
            options += [(m, slot) for s in others for m in s.minions if g.can_move(p, m, slot)]
            default = len(options)
            now = g.vp_now(slot)
            # the opponent who outranks p here (of several, the one taking the most VP; ties:
            # the first in turn order after p) loses its strongest minion here
            rivals = [q for q in ((p + i) % g.n for i in range(1, g.n)) if now[q] > now[p]]
            if rivals:
                rival = max(rivals, key=lambda q: now[q])  # max keeps the first of equals
                theirs = [m for m in slot.minions if m.controller == rival]
                target = max(theirs, key=lambda m: (g.power(m), -m.entered))
                dests = [s for (m, s) in options if m is target]
                if dests:
                    dest = max(dests, key=lambda s: (gap(g, s), -s.index))
                    default = options.index((target, dest))
        else:  # 2012: one minion of another player from any base to here
            options = [(m, slot) for s in g.slots if s is not slot for m in s.minions
                       if m.controller != p and g.can_move(p, m, slot)]
            before = V(g, p)
            gains = [_v_after_move(g, p, m, slot) - before for m, _ in options]
            default = len(options)
            if gains and max(gains) > 0:
                default = gains.index(max(gains))
        if options:
            pick = g.choose(p, "Mushroom Kingdom", options + [None], default)
            if pick is not None:
                g.move(pick[0], pick[1], None)


def _v_after_move(g, p, m, dest):
    from .baseline import _v_with  # noqa: PLC0415
    return _v_with(g, p, m, dest)


class SchoolOfWizardry(Base):
    def after_scoring(self, g, slot, winners, runners, places):
        if not winners or not g.base_deck:
            return None
        p = winners[0]  # only the first winner in turn order [D15]
        seen = [g.base_deck.pop() for _ in range(min(3, len(g.base_deck)))]
        default = max(range(len(seen)), key=lambda i: (seen[i].vp[0], -seen[i].breakpoint, -i))
        pick = g.choose(p, "School of Wizardry", seen, default)
        others = [b for b in seen if b is not pick]
        # "returns the others in any order": which goes on top is the winner's choice (the
        # baseline keeps the order seen, so the first seen goes back on top)
        if len(others) == 2 and g.choose(p, "School of Wizardry: on top", others, 0) is others[1]:
            others.reverse()
        for b in reversed(others):
            g.base_deck.append(b)  # others[0] last, on top
        return pick


class GreatLibrary(Base):
    def after_scoring(self, g, slot, winners, runners, places):
        for p in g.turn_order():
            if any(m.controller == p for m in slot.minions) and g.may(p, "The Great Library", True, True):
                g.draw(p)


class EvansCityCemetery(Base):
    def after_scoring(self, g, slot, winners, runners, places):
        for p in winners:
            pl = g.players[p]
            for c in list(pl.hand):
                g.discard_from_hand(p, c)
            g.draw(p, 5)


class RhodesPlazaMall(Base):
    def scoring_vp(self, g, slot, places, gained):
        for m in slot.minions:
            gained[m.controller] += 1


ab.BASES.update({
    "The Homeworld": Homeworld(), "The Mothership": Mothership(), "Ninja Dojo": NinjaDojo(),
    "Temple of Goju": TempleOfGoju(), "The Grey Opal": GreyOpal(), "Tortuga": Tortuga(),
    "Factory 436-1337": Factory(), "Cave of Shinies": CaveOfShinies(),
    "Mushroom Kingdom": MushroomKingdom(), "School of Wizardry": SchoolOfWizardry(),
    "The Great Library": GreatLibrary(), "Evans City Cemetery": EvansCityCemetery(),
    "Rhodes Plaza Mall": RhodesPlazaMall(),
})
