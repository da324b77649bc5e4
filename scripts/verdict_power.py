"""The planted-truth figures of docs/MEASURES.md for the verdicts made honest in sessions 42-43,
reproduced with the tests' own helpers (tests/test_defenders.py, tests/test_verdicts.py):

  swaps       Defenders: the hero-swap difference a fair run states (exact power of Fisher's
              test) and the normal figure it replaced, each planted: the share of 400 runs
              that find it (2 heroes, 3,000 games, 0.4% wins; 4 heroes, 20,000 games, 3%)
  dice        Defenders: the dice line's stated error, planted: the share of 400 runs that flag it
              (100 and 250 lone combats at each card count)
  sides       the side verdict's stated difference (exact power of the binomial test; 8 factions at
              2 players, 140-161 seat-games), planted above and below: the share of 1,000 runs
              that find it
  strategies  the strategy verdict's false alarms with 4 equal strategies (1,000 runs)
  villains    Avengers: per-game correlations of two villains' beaten results (3 players, the
              reference engine), the reason the villain test takes them as independent

Usage: python scripts/verdict_power.py [swaps dice sides strategies villains]   (all: about 3.5 minutes)
"""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np

root = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(root), str(root / "tests")]

from test_defenders import dice_power, swap_power  # noqa: E402
from test_verdicts import side_power, strategy_null_alarms  # noqa: E402


def swaps() -> None:
    print("heroes  games   win rate  stated  found   normal  found")
    for games, size, rate in ((3000, 2, 0.004), (20000, 4, 0.03)):
        out = swap_power(games, size, rate)
        print(f"{size:>6}  {games:>6,}  {rate:>8.1%}  {out['stated']:>6.2%}  {out['found']:>6.2%}  "
              f"{out['normal']:>6.2%}  {out['normal_found']:>6.2%}")


def dice() -> None:
    print("combats a size  general   stated error  found")
    for per_size in (100, 250):
        out = dice_power(per_size)
        print(f"{per_size:>14}  {out['general']:<8}  {out['stated']:>12.2%}  {out['found']:>6.2%}")


def sides() -> None:
    from test_verdicts import SIDE_GAMES, side_table

    stated = float(side_table(np.rint(SIDE_GAMES * 0.5))["detectable"].max())
    above, below = side_power()
    print(f"a faction {100 * stated:.2f} pp from the average (the stated figure), 1,000 runs: found {above:.1%} above, "
          f"{below:.1%} below")


def strategies() -> None:
    print(f"false alarms, 4 equal strategies, 1,000 runs: {strategy_null_alarms():.1%}")


def villains(games: int = 1500) -> None:
    """The correlation over games of two villains' beaten (0/1), for every pair fought together in
    50 games or more, under random and greedy:samples=5 players."""
    from balance.core.strategy import parse_strategy
    from balance.games.avengers_cards import reference
    from balance.games.avengers_cards.rules import Rules
    from balance.games.avengers_cards.strategies import STRATEGIES

    rules = Rules.from_overrides({"players": 3})
    for spec in ("random", "greedy:samples=5"):
        seats = [parse_strategy(spec, STRATEGIES)] * 3
        played = [reference.play_game(rules, seats, 3, g) for g in range(games)]
        ids = sorted({f.villain for g in played for f in g.fights})
        beaten = np.full((games, len(ids)), np.nan)  # (games, villains): 1 beaten, 0 not, NaN not fought
        for i, g in enumerate(played):
            for f in g.fights:
                beaten[i, ids.index(f.villain)] = f.beaten
        found = []
        for a, b in itertools.combinations(range(len(ids)), 2):
            both = ~np.isnan(beaten[:, a]) & ~np.isnan(beaten[:, b])
            x, y = beaten[both, a], beaten[both, b]
            if both.sum() >= 50 and x.std() and y.std():
                found.append(np.corrcoef(x, y)[0, 1])
        print(f"{spec}, {games:,} games: {len(found)} pairs, correlation {min(found):+.3f} to {max(found):+.3f}")


def main() -> None:
    parts = {"swaps": swaps, "dice": dice, "sides": sides, "strategies": strategies, "villains": villains}
    asked = sys.argv[1:] or list(parts)
    unknown = [a for a in asked if a not in parts]
    if unknown:
        sys.exit(f"unknown part {unknown[0]!r}; allowed: {', '.join(parts)}")
    for name in asked:
        print(f"# {name}")
        parts[name]()


if __name__ == "__main__":
    main()
