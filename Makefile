# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench lock clean

run: $(VENV)/.installed
	$(BIN)/puzzlecomp rank src/puzzlecomp/samples/wjpc-2025-individual-first-A.csv \
		--ruleset wjpc-2025 --event individual --round first

test: $(VENV)/.installed
	$(BIN)/pytest

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

bench: $(VENV)/.installed
	$(BIN)/puzzlecomp bench

$(VENV)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "puzzlecomp needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

# Re-pin every dependency after editing pyproject.toml.
lock:
	uv pip compile pyproject.toml --extra dev --python-version 3.11 --output-file requirements.lock

clean:
	rm -rf $(VENV)
