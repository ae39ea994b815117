# Referee: `make run` and `make test` do all the set-up on a machine with Python 3.11+ and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c requirements.lock -e '.[dev]'
	# compile the package's bytecode now (an editable install does not, and where
	# PYTHONDONTWRITEBYTECODE is set nothing else would): a command starts faster
	$(BIN)/python -m compileall -q src
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/referee demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy --strict
	$(BIN)/lint-imports

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m compileall -q src
	# d20, the anchor, pins lark-parser 0.9, which would shadow lark 1.x; d20 runs on lark 1.x.
	$(BIN)/python -m pip install -q --no-deps d20==1.1.2 cachetools==8.0.1
	$(BIN)/python bench/dice.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
