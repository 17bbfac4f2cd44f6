# The two commands a fresh clone needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The default study: does the dealer's hook matter? First settled: rounds of new deal sets under
# both lineups until a confidence sequence of the dealer's edge decides each variant against
# classic (raspis settle, at most GAMES deal sets; results/settle, its answer in
# results/settle.txt). Then the full study of the balance profile: classic with the hook, without it
# (bidding.hook = "off", "сходимся"), and with the hook only from the fourth deal on (from_deal),
# on the same deal sets (one run, --variant repeated) between two players of the strongest batch
# strategy (strong), fastheuristic and lowest, each deal set under the four rotations of the seats;
# then the same variants and deal sets between weaker players (fastheuristic x2, lowest x2), so
# the comparison can say whether its answer holds when the players change; then the comparison
# (the answer, then the balance profile: fairness, skill, luck, drama, bidding in chances) and
# the full report of both.
# The first run on a machine also compiles the rules core (said on stderr, about half a minute);
# later runs load it. Rerunning finishes or reuses the run. GAMES sets the deal sets.
GAMES ?= 2000
SETTLE := results/settle
STUDY := results/study
STUDY_WEAK := results/study-weak
VARIANTS := results/variants
STUDY_VARIANTS := $(VARIANTS)/classic-no-hook.toml $(VARIANTS)/classic-hook-from-4.toml

$(VARIANTS)/classic-no-hook.toml:
	mkdir -p $(VARIANTS)
	printf 'name = "classic-no-hook"\nextends = "classic"\nbidding.hook = "off"\n' > $@

$(VARIANTS)/classic-hook-from-4.toml:
	mkdir -p $(VARIANTS)
	printf 'name = "classic-hook-from-4"\nextends = "classic"\nbidding.hook = "from_deal"\nbidding.hook_from_deal = 4\n' > $@

run: $(STAMP) $(STUDY_VARIANTS)
	$(BIN)/raspis settle classic $(STUDY_VARIANTS) --lineup strong,strong,fastheuristic,lowest \
		--lineup fastheuristic,fastheuristic,lowest,lowest --budget $(GAMES) --seed 1 \
		--out $(SETTLE) --resume > $(SETTLE).txt
	cat $(SETTLE).txt
	$(BIN)/raspis tournament --variant classic $(foreach v,$(STUDY_VARIANTS),--variant $(v)) \
		--players 4 --strategies strong,strong,fastheuristic,lowest --games $(GAMES) \
		--duplicate rotations --deal-rows --seed 1 --out $(STUDY) --resume
	$(BIN)/raspis tournament --variant classic $(foreach v,$(STUDY_VARIANTS),--variant $(v)) \
		--players 4 --strategies fastheuristic,fastheuristic,lowest,lowest --games $(GAMES) \
		--duplicate rotations --deal-rows --seed 1 --out $(STUDY_WEAK) --resume
	$(BIN)/raspis compare $(STUDY) $(STUDY_WEAK) --out $(STUDY)/compare > $(STUDY)/compare.txt
	$(BIN)/raspis report $(STUDY) $(STUDY_WEAK) --out $(STUDY)/report \
		--title "raspis: the hook study"
	mkdir -p docs/figures   # the README's figures, from this run
	cp $(SETTLE)/figures/settle.png $(STUDY)/compare/figures/profile.png docs/figures/
	@echo "settled:    $(SETTLE).txt (runs and log in $(SETTLE)/)"
	@echo "comparison: $(STUDY)/compare/compare.html (and compare.md, compare.txt)"
	@echo "report:     $(STUDY)/report/report.html (and report.md)"

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 tests

# Lint with a pinned ruff (a newer one adds rules): the same version as the dev extra.
RUFF := ruff==0.8.6

lint: $(STAMP)
	$(BIN)/python -m pip install --quiet '$(RUFF)'
	$(BIN)/ruff check raspis cli engine strategies analysis tests tournament benchmarks mutation

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
