"""Who makes the reference game's choices: the baseline, uniform random play, or a script.

A player object answers ``pick(g, p, key, options, default) -> index``; ``key`` names the
decision (a card name, ``"play"``, ``"before-scoring"``, ``"mulligan"`` ...), ``default`` is the
baseline's index (the card's "Default" line, rules/smash-up-cards.md).
"""
from __future__ import annotations


class Greedy:
    """The baseline: every choice as the card's "Default" line says (no randomness).
    ``weights``: its board value's (``baseline.V``), in percent."""

    weights = (200, 100)  # a base ready to score, a rival's VP (rules/smash-up-cards.md §1.11)
    reads_default = True  # a default that costs work to find (Mass Enchantment's) is worth finding

    def pick(self, g, p, key, options, default):
        return default


class Planner(Greedy):
    """The baseline with its own V weights (percent): ``ready`` for a base ready to score
    (100 for one that is not), ``deny`` for the best rival's VP on a base (100 for its own)."""

    def __init__(self, ready=200, deny=100):
        self.weights = (int(ready), int(deny))


class Random:
    """Uniform over the legal options, drawn from the seat's stream (``1 + seat``)."""

    reads_default = False

    def pick(self, g, p, key, options, default):
        return g.streams[p].below(len(options))


class Scripted:
    """For tests: ``script[key]`` is a list of answers used in turn — an option itself, an
    index (int), or a function of the options returning an index; other choices fall back to
    ``fallback`` (the baseline by default)."""

    def __init__(self, script=None, fallback=None):
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.fallback = fallback or Greedy()
        self.seen: list = []  # (key, options) of every decision, for tests that inspect them
        self.reads_default = getattr(self.fallback, "reads_default", True)  # a script never does

    def pick(self, g, p, key, options, default):
        self.seen.append((key, list(options)))
        answers = self.script.get(key)
        if not answers:
            return self.fallback.pick(g, p, key, options, default)
        answer = answers.pop(0)
        if callable(answer):
            return answer(options)
        for i, o in enumerate(options):
            if o is answer:
                return i
        if isinstance(answer, int) and not isinstance(answer, bool):
            return answer
        return options.index(answer)
