# Earshot: two commands do everything on a fresh machine.
#   make run   — set up, migrate, seed the demo and serve it with Redis and a Celery worker
#   make test  — set up and run ruff and every test (SQLite, PostgreSQL, Celery, Chromium)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCK := requirements/dev.lock
STAMP := $(VENV)/.installed

.PHONY: run test install lint bench clean

$(STAMP): $(LOCK) pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r $(LOCK)
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python scripts/run.py

test: $(STAMP)
	bash scripts/system_deps.sh
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python scripts/run_tests.py

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -r requirements/bench.lock
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) var
