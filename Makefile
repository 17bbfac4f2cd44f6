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

# The default tournament (classic, four players, built-in strategies, duplicate seatings, about a
# minute on two cores with the batch engine) and its report. Rerunning finishes or reuses the run.
RUN_DIR := results/default
run: $(STAMP)
	$(BIN)/raspis tournament --variant classic --players 4 \
		--strategies fastheuristic,lowest,random,random --games 20000 --duplicate rotations \
		--seed 1 --out $(RUN_DIR) --resume
	$(BIN)/raspis report $(RUN_DIR) --out $(RUN_DIR)/report --title "raspis: the default tournament"
	@echo "report: $(RUN_DIR)/report/report.html (and report.md)"

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 tests

lint: $(STAMP)
	$(BIN)/python -m pip install --quiet ruff
	$(BIN)/ruff check cli engine strategies analysis tests

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
