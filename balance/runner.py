"""Plays a run chunk by chunk, folding each chunk into integer totals at once.

Memory stays flat however many games are played: only one chunk of per-game rows exists at a
time. Game numbers, not chunks, key the random streams, so any chunk size gives the same totals.
"""
from __future__ import annotations

from typing import Callable

DEFAULT_CHUNK = 50_000


def run_chunks(engine, seed: int, first_game: int, n_games: int, chunk_size: int = DEFAULT_CHUNK,
               on_chunk: Callable | None = None, on_progress: Callable[[int], None] | None = None) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; return the summed totals
    (``engine.empty_totals()`` layout).

    ``on_chunk(chunk)`` sees each chunk's per-game rows (e.g. to stream them to disk);
    ``on_progress(n)`` is told how many games each chunk played.
    """
    totals = engine.empty_totals()
    end = first_game + n_games
    for first in range(first_game, end, chunk_size):
        chunk = engine.play(seed, first, min(chunk_size, end - first))
        for name, array in chunk.totals.items():
            totals[name] += array
        if on_chunk is not None:
            on_chunk(chunk)
        if on_progress is not None:
            on_progress(len(chunk.beaten))
    return totals
