"""Card abilities, one module per faction; importing them fills ``abilities``' tables."""
from . import aliens, dinosaurs, ninjas, pirates, robots, tricksters, wizards, zombies  # noqa: F401
