# On a fresh clone with only Python and make:
#   make report   set up, simulate the default balance study, write it under reports/
#   make test     set up and run the test suite
# The interpreter .venv is made with: the first of these that is Python >= 3.11 (python3 is
# older on some systems: Debian 11, Ubuntu 22.04, macOS's command-line tools), or PYTHON=...
PYTHON ?= $(firstword $(foreach p,python3 python3.14 python3.13 python3.12 python3.11,\
	$(shell $(p) -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && echo $(p))))
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install test test-slow test-all boundscheck report report-smash-up report-zenonzard report-defenders tune \
	tune-smash-up tune-zenonzard tune-defenders skill skill-smash-up bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || test -n "$(PYTHON)" || { echo "make: balance needs Python >= 3.11;" \
		"python3 here is $$(python3 --version 2>&1). Install one, or name it: make PYTHON=/path/to/python3.12" >&2; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# What ends a command writing DIR: `--resume DIR` when a cut run or analysis of DIR is kept
# (Ctrl-C or a crash during `make report`), so running make again continues where it stopped;
# else `--force`, replacing the last output.
again = $$(if [ -f $(dir $(1)).$(notdir $(1)).partial/request.json ]; then echo --resume $(1); else echo --force; fi)

# `make report` continues a cut `make report`: REPORT_STARTED is made when it starts and removed
# when it ends, and a step of it whose output was finished since (scripts/finished.sh) is kept,
# not played again with --force (the Avengers study alone takes minutes). Run on its own, a
# target (make report-smash-up) plays every step.
REPORT_STARTED := reports/.make-report-started
finished = $(if $(IN_REPORT),sh scripts/finished.sh $(1) $(REPORT_STARTED) ||,)

# -n auto --dist loadgroup: a worker per CPU this process may use, one test at a time per worker
# in the order tests/conftest.py sets, so the long cold compiles overlap the rest of the suite.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadgroup

# The long statistical checks; run them before resolving an issue.
test-slow: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadgroup -m slow

test-all: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadgroup -m 'slow or not slow'

# The Smash Up, ZENONZARD and Defenders tests in kernels compiled with every array index checked
# (they compile without negative-index wraparound, balance/core/_jit.py); about 6 minutes.
boundscheck: $(STAMP)
	$(BIN)/python scripts/boundscheck.py

# The default study: 3, 4 and 5 players, 300,000 games each (seat win rates within about
# +-0.2 pp). The headline numbers come from one strategy in every seat, the strongest we have
# (greedy tuned by `make tune`, committed in $(STUDY)/tuned-greedy), with card strength measured
# by restricted play; the strategy mix (tuned greedy, threshold, random rotated over the seats)
# is a second run, reported as its own section.
STUDY := reports/avengers-cards
TUNED := greedy:@$(STUDY)/tuned-greedy
report: IN_REPORT := 1
report: $(STAMP)
	@test -f $(REPORT_STARTED) || touch $(REPORT_STARTED)
	$(call finished,$(STUDY)/run) $(BIN)/balance simulate avengers-cards --players 3,4,5 --games 300000 \
		--seed 1 --strategy $(TUNED) --card-strength --out $(STUDY)/run $(call again,$(STUDY)/run)
	$(call finished,$(STUDY)/mix) $(BIN)/balance simulate avengers-cards --players 3,4,5 --games 300000 \
		--seed 1 --strategy $(TUNED) --strategy threshold --strategy random --rotate \
		--out $(STUDY)/mix $(call again,$(STUDY)/mix)
	$(BIN)/balance report $(STUDY)/run --mix $(STUDY)/mix --out $(STUDY)
	$(MAKE) report-smash-up IN_REPORT=1
	$(MAKE) report-zenonzard IN_REPORT=1
	$(MAKE) report-defenders IN_REPORT=1
	@rm -f $(REPORT_STARTED)

# Smash Up (issue 11): greedy in every seat, faction pairs drawn per game (so the faction and
# pair tests are randomised experiments), 2, 3 and 4 players; then card strength in a smaller
# run at 2 players: every card removed from the deck of the seat holding its faction, the same
# games played again (each game is replayed once per card of its factions: about 47 times at 2
# players, 94 at 4, so measured on the main run it would take 50 to 90 times as long); one
# report gives both.
SMASH := reports/smash-up
SMASH_GAMES ?= 50000
SMASH_CARD_GAMES ?= 6000
report-smash-up: $(STAMP)
	$(call finished,$(SMASH)/run) $(BIN)/balance simulate smash-up --players 2,3,4 --games $(SMASH_GAMES) \
		--seed 1 --strategy greedy --out $(SMASH)/run $(call again,$(SMASH)/run)
	$(call finished,$(SMASH)/card-strength) $(BIN)/balance simulate smash-up --players 2 \
		--games $(SMASH_CARD_GAMES) --seed 1 --strategy greedy --card-strength --out $(SMASH)/card-strength \
		$(call again,$(SMASH)/card-strength)
	$(BIN)/balance report $(SMASH)/run --card-strength $(SMASH)/card-strength --out $(SMASH)

# ZENONZARD (issue 12): the tuned evaluator (`make tune-zenonzard`, committed in
# $(ZZ)/tuned-evaluator) in both seats; each seat's Force pair and deck drawn per game from 72
# generated one-colour decks on low, standard and high curves (so pairs, colours and curves are
# randomised factors); card strength by swapping each card for a vanilla stand-in on the same
# games. Then the first player's win rate under every strategy: a ladder from random to tuned.
ZZ := reports/zenonzard
ZZ_TUNED := evaluator:@$(ZZ)/tuned-evaluator
ZZ_STUDY := --set curves=varied --set deck_pool=72
ZZ_GAMES ?= 200000
ZZ_LADDER_GAMES ?= 30000
report-zenonzard: $(STAMP)
	$(call finished,$(ZZ)/run) $(BIN)/balance simulate zenonzard --games $(ZZ_GAMES) --seed 1 \
		--strategy $(ZZ_TUNED) $(ZZ_STUDY) --card-strength --out $(ZZ)/run $(call again,$(ZZ)/run)
	$(BIN)/balance report $(ZZ)/run --out $(ZZ)
	$(call finished,$(ZZ)/ladder) $(BIN)/balance ladder zenonzard --ladder random,aggro,control,evaluator \
		--ladder $(ZZ_TUNED) --games $(ZZ_LADDER_GAMES) --seed 2 $(ZZ_STUDY) --out $(ZZ)/ladder $(call again,$(ZZ)/ladder)

# ZENONZARD: tune the evaluator's weights by self-play (cross-entropy, common random numbers),
# on the study's decks, validated on fresh games against every strategy.
tune-zenonzard: $(STAMP)
	$(BIN)/balance tune zenonzard --strategy evaluator --against self --budget 3000000 --seed 0 \
		$(ZZ_STUDY) --validate-games 100000 --out $(ZZ)/tuned-evaluator $(call again,$(ZZ)/tuned-evaluator)

# Defenders of the Realm (issue 13), the cooperative game: the tuned coordinated team policy
# (`make tune-defenders`, committed in $(DR)/tuned-coordinated) in every seat, 1 to 4 heroes,
# each game's team drawn from the 8 heroes (so the hero tests are randomised experiments).
# Then the difficulty levers at 4 heroes, each against the rulebook on the same games (common
# random numbers): Darkness cards per night, the war's pace, the minion supply, starting taint.
# Its question (--primary): the team's win rate and the heroes' fairness, corrected as their own
# family; the other rows (length, crystals, each hero's rate, ...) among themselves.
DR := reports/defenders-of-the-realm
DR_TUNED := coordinated:@$(DR)/tuned-coordinated
DR_GAMES ?= 200000
DR_VARIANT_GAMES ?= 100000
report-defenders: $(STAMP)
	$(call finished,$(DR)/run) $(BIN)/balance simulate defenders-of-the-realm --players 1,2,3,4 \
		--games $(DR_GAMES) --seed 1 --strategy $(DR_TUNED) --out $(DR)/run $(call again,$(DR)/run)
	$(BIN)/balance report $(DR)/run --out $(DR)
	$(call finished,$(DR)/variants) $(BIN)/balance compare defenders-of-the-realm --players 4 \
		--strategy $(DR_TUNED) --games $(DR_VARIANT_GAMES) \
		--seed 2 --variant default --variant "fewer_cards:war_cards=[1, 1, 2]" \
		--variant "more_cards:war_cards=[2, 2, 3]" --variant "fast_war:late_war_after=2" \
		--variant "more_minions:minions_per_colour=30" --variant "fewer_minions:minions_per_colour=20" \
		--variant "clean_start:start_taint=0" --variant "tainted_start:start_taint=3" \
		--primary team_win --primary side_relative_distance \
		--out $(DR)/variants $(call again,$(DR)/variants)

# Defenders: tune the coordinated team's weights in self-play for the team's win rate at 4
# heroes (cross-entropy, common random numbers), validated on fresh games against the default team.
tune-defenders: $(STAMP)
	$(BIN)/balance tune defenders-of-the-realm --strategy coordinated --players 4 --budget 4000000 \
		--seed 0 --validate-games 100000 --out $(DR)/tuned-coordinated $(call again,$(DR)/tuned-coordinated)

# Skilled play (issue 5): tune greedy by self-play (about 8 minutes on one core), then the
# ladder random -> heuristics -> greedy -> tuned greedy, and card strength by restricted play.
tune: $(STAMP)
	$(BIN)/balance tune avengers-cards --strategy greedy --players 4 --against self \
		--budget 24000000 --seed 0 --validate-games 200000 --threads 1 \
		--out $(STUDY)/tuned-greedy $(call again,$(STUDY)/tuned-greedy)
skill: $(STAMP)
	$(BIN)/balance ladder avengers-cards --ladder random,lowest,threshold,greedy \
		--ladder $(TUNED) --players 3,4,5 --games 100000 --seed 2 \
		--out $(STUDY)/ladder $(call again,$(STUDY)/ladder)
	$(BIN)/balance restrict avengers-cards --strategy $(TUNED) \
		--when always --players 4 --games 200000 --seed 3 --out $(STUDY)/restrict $(call again,$(STUDY)/restrict)

# Smash Up: tune the planner's V weights against greedy at 2 players (cross-entropy, common
# random numbers), validated on fresh games against greedy and random.
tune-smash-up: $(STAMP)
	$(BIN)/balance tune smash-up --strategy planner --players 2 --against greedy \
		--budget $(SMASH_TUNE_GAMES) --population 8 --games-per-candidate 2000 --seed 0 \
		--validate-games 20000 --out $(SMASH)/tuned-planner $(call again,$(SMASH)/tuned-planner)
SMASH_TUNE_GAMES ?= 160000

# Smash Up: do the faction edges hold under skilled play? The ladder random -> greedy -> tuned
# planner, factions drawn per game: each rung's factions found, highest and lowest faction.
skill-smash-up: $(STAMP)
	$(BIN)/balance ladder smash-up --ladder random,greedy,planner:@$(SMASH)/tuned-planner --players 2,3,4 \
		--games $(SMASH_LADDER_GAMES) --seed 2 --out $(SMASH)/ladder $(call again,$(SMASH)/ladder)
SMASH_LADDER_GAMES ?= 10000

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

clean:
	rm -rf $(VENV) runs .pytest_cache
