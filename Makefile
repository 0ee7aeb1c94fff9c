# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench lock clean messages

run: $(VENV)/.installed
	$(BIN)/puzzlecomp serve --demo

test: $(VENV)/.installed
	$(BIN)/pytest

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(VENV)/.installed
	$(BIN)/puzzlecomp bench

$(VENV)/.installed: pyproject.toml requirements.lock $(wildcard src/puzzlecomp/locale/*/LC_MESSAGES/django.po)
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "puzzlecomp needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/puzzlecomp translations compile > /dev/null
	touch $@

# Re-pin every dependency after editing pyproject.toml.
lock:
	uv pip compile pyproject.toml --extra dev --python-version 3.11 --output-file requirements.lock

clean:
	rm -rf $(VENV)

# Extract the source strings into the catalogs (needs GNU gettext: apt-get install gettext).
messages: $(VENV)/.installed
	cd src/puzzlecomp && DJANGO_SETTINGS_MODULE=puzzlecomp.settings.dev ../../$(BIN)/django-admin makemessages -l cs -l nb -l es --no-location --no-obsolete
