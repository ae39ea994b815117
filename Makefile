# Referee: `make run` and `make test` do all the set-up on a machine with Python 3.11+ and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install run test check lint bench clean postgres chromium pdftools

$(STAMP): pyproject.toml requirements.lock examples/toy-game/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c requirements.lock -e '.[dev]'
	# the example of a sixth game, a package of its own found through its entry point
	# (docs/new-game.md): installed as a plug-in would be
	$(BIN)/python -m pip install -q --no-deps -e examples/toy-game
	# compile the package's bytecode now (an editable install does not, and where
	# PYTHONDONTWRITEBYTECODE is set nothing else would): a command starts faster
	$(BIN)/python -m compileall -q src
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/referee play

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/mypy --strict
	$(BIN)/lint-imports

# Every test on every core; an idle worker takes queued tests from a busy one (worksteal), so
# the browser and killed-writer tests at the end do not leave a core waiting.
test: lint postgres chromium pdftools
	$(BIN)/pytest -n auto --dist worksteal

# The quick loop while working: the same lint, then every test but those marked slow (browsers,
# killed writers, whole catalogues, big hypothesis runs), on every core. `make test` runs all.
check: lint postgres pdftools
	$(BIN)/pytest -n auto --dist worksteal -m "not slow"

# The handouts' tests read their PDFs with poppler's pdftoppm, in DejaVu Sans.
pdftools:
	@command -v pdftoppm >/dev/null && test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils fonts-dejavu-core >/dev/null 2>&1; } || { echo "handouts need poppler-utils and fonts-dejavu-core: sudo apt-get install -y poppler-utils fonts-dejavu-core"; exit 1; }

# The web table's tests drive Debian's Chromium (never a downloaded browser): install it if it
# is missing, or fail with one line saying how.
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq >/dev/null 2>&1 && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; } || \
	  { echo "Chromium is missing: install it with 'sudo apt-get install -y chromium' (the web table's tests drive /usr/bin/chromium)"; exit 1; }

# The store's tests run on PostgreSQL as well as SQLite, never skipped: start the local cluster
# if it is down, or fail with one line saying how.
postgres:
	@pg_isready -q -h 127.0.0.1 2>/dev/null || { \
	  pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql 2>/dev/null | head -1) main start \
	    >/dev/null 2>&1; for i in 1 2 3 4 5 6 7 8 9 10; do \
	    pg_isready -q -h 127.0.0.1 2>/dev/null && break; sleep 1; done; \
	  pg_isready -q -h 127.0.0.1 2>/dev/null; } || { \
	  echo "PostgreSQL is not reachable at 127.0.0.1:5432: start it with 'pg_ctlcluster VERSION main start' (apt-get install postgresql if missing), or set REFEREE_TEST_POSTGRES_URL"; \
	  exit 1; }

bench: $(STAMP)
	$(BIN)/python -m compileall -q src
	# d20, the anchor, pins lark-parser 0.9, which would shadow lark 1.x; d20 runs on lark 1.x.
	$(BIN)/python -m pip install -q --no-deps d20==1.1.2 cachetools==8.0.1
	$(BIN)/python bench/dice.py
	$(BIN)/python bench/store.py
	$(BIN)/python bench/table.py
	$(BIN)/python bench/intrigue_duel.py
	$(BIN)/python bench/sim.py
	$(BIN)/python bench/server.py --quick
	# issue 29: Referee against the anchor server under a convention's load (the full run:
	# bench/convention.py without --quick, about ten minutes; docs/performance.md)
	$(BIN)/python bench/convention.py --quick
	$(BIN)/python bench/web.py
	$(BIN)/python bench/handouts.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
