"""Smash Up, core set (AEG, 2012) — work in progress for issue 11.

Only the card and base data (``catalogue.py``) and the rules (``rules.py``) exist; no ``GAME``
yet, so it is not registered and no command offers it. See the issue's notes for the plan.
"""
