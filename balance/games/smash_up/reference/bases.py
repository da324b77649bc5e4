"""Base abilities (rules/smash-up-cards.md §11)."""
from __future__ import annotations

from . import abilities as ab  # noqa: F401
