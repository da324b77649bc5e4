"""Toy games used only by the tests (and the tutorial): each is a complete game package that
the test session registers through the ``balance.games`` entry-point route (tests/conftest.py),
so every command runs on it with no game-specific code anywhere else."""
