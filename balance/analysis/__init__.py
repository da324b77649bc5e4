"""The analysis layer, game-neutral: statistics, report frames, figures, documents and the
commands built on runs (report, compare, tune, ladder, matchups, restrict)."""
