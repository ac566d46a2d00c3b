# Two commands do everything on a fresh machine:
#   make run    install into .venv and serve the app on http://127.0.0.1:5000 (SQLite in instance/)
#   make test   install everything the tests need (Chromium, PostgreSQL from Debian) and run them all

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test lint bench conformance system clean messages

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/flask --app companion init-db
	$(BIN)/flask --app companion run --host $(HOST) --port $(PORT)

system:
	bash scripts/ensure-system.sh
	npm ci --no-audit --no-fund --silent

# The Python packages and the system ones (and npm's) install side by side.
test:
	+$(MAKE) --no-print-directory -j2 $(STAMP) system
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	node --test tests/js/
	bash scripts/run-tests.sh

conformance: $(STAMP)
	$(BIN)/python ../shared/conformance.py

bench: $(STAMP)
	$(BIN)/python bench/bench_startup.py
	$(BIN)/python bench/bench_rules.py
	$(BIN)/python bench/bench_advice.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis

# After adding or changing visible strings: refresh the catalogue, merge it
# into every language, translate the new entries, then compile.  es_AR is a
# variant of es: translate there only what it says differently (and every
# plural, which Babel would otherwise compile as English); leave the rest empty.
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k _l -k lazy_gettext -k ngettext:1,2 -k lazy_pgettext:1c,2 -k _lp:1c,2 -k pgettext:1c,2 \
		--no-location --no-wrap --sort-output -o companion/translations/messages.pot .
	$(BIN)/pybabel update -i companion/translations/messages.pot -d companion/translations --no-fuzzy-matching --no-wrap
	$(BIN)/pybabel compile -d companion/translations
