# On a fresh clone with only Python and make:
#   make report   set up, simulate the default balance study, write it under reports/
#   make test     set up and run the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install test test-slow test-all report bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

# The long statistical checks; run them before resolving an issue.
test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

test-all: $(STAMP)
	$(BIN)/python -m pytest -m 'slow or not slow'

# The default study: 3, 4 and 5 players, 300,000 games each (seat win rates within about
# +-0.2 pp), greedy, threshold and random rotated over the seats; then its report.
STUDY := reports/avengers-cards
report: $(STAMP)
	$(BIN)/balance simulate avengers-cards --players 3,4,5 --games 300000 --seed 1 \
		--strategy greedy --strategy threshold --strategy random --rotate \
		--out $(STUDY)/run --force
	$(BIN)/balance report $(STUDY)/run --out $(STUDY)

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

clean:
	rm -rf $(VENV) runs .pytest_cache
