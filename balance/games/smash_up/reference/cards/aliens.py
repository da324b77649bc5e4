"""Aliens: every card ability (rules/smash-up-cards.md)."""
from __future__ import annotations

from .. import abilities as ab  # noqa: F401
