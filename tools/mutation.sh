#!/usr/bin/env bash
# Mutation testing of the rules (issue 13): mutmut 3 over one game's rule-bearing modules, or the
# kernel's, with only that game's tests. Not part of `make test`; mutmut is never a dependency of
# the project: it lives in a scratch venv outside the work tree.
#
#   tools/mutation.sh GAME [SECONDS]
#
# GAME is intrigue, kingdoms, zweihander, ginlane, hursagmu or core. SECONDS (default 1200) caps
# the mutation run; mutmut keeps every verdict it reached, so a capped run is a partial run and
# says so. MODULES="a.py b.py" overrides the game's module list (paths under its package).
# TEST_PATHS="tests/a.py tests/b/" runs the mutants against only those tests (a module most of the
# game's tests reach, like a procedure or a view, costs the whole suite per mutant otherwise; rerun
# the survivors with the game's whole suite before calling one a survivor).
# MUTANTS="NAME-OR-GLOB …" runs only those mutants (e.g. 'referee.systems.ginlane.grenades.x_blast*')
# to triage a past run's survivors without running the rest.
# The scratch copy is $MUTATION_DIR/GAME (default /tmp/referee-mutation), or $MUTATION_DIR/COPY_NAME
# to keep two runs of one game apart; the venv is $MUTATION_DIR/venv. The run uses one worker (the
# machine has two cores shared by everyone).
# Lines that raise are not mutated (the wording of a refusal is not a rule; the condition that
# refuses is mutated). After the run:   cd $MUTATION_DIR/GAME && ../venv/bin/mutmut results   (or `mutmut show NAME`).
set -euo pipefail

GAME=${1:?usage: tools/mutation.sh GAME [SECONDS]}
CAP=${2:-1200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${MUTATION_DIR:-/tmp/referee-mutation}
VENV=$WORK/venv
MUTMUT_VERSION=3.8.1

case $GAME in
  intrigue)
    PKG=src/referee/systems/intrigue
    DEFAULT="damage.py perception.py skills.py rounds.py escape.py mental.py combat.py envelopes.py"
    TESTS='"tests/systems/intrigue"' ;;
  kingdoms)
    PKG=src/referee/systems/kingdoms
    DEFAULT="resolution.py dice.py fold.py disposition.py"
    TESTS='"tests/systems/kingdoms"' ;;
  zweihander)
    PKG=src/referee/systems/zweihander
    DEFAULT="percentile.py madness.py reputation.py morale.py skill_tests.py social.py overland.py chase.py wilderness.py"
    TESTS='"tests/systems/zweihander"' ;;
  ginlane)
    PKG=src/referee/systems/ginlane
    DEFAULT="rolls.py aspects.py consequences.py grenades.py zones.py stress.py fighting.py"
    TESTS='"tests/systems/ginlane"' ;;
  hursagmu)
    PKG=src/referee/systems/hursagmu
    DEFAULT="combat.py initiative.py races.py recovery.py movement.py rounds.py"
    TESTS='"tests/systems/hursagmu"' ;;
  core)
    PKG=src/referee/core
    DEFAULT="checks.py clock.py events.py table.py"
    TESTS='"tests/core", "tests/test_conformance.py"' ;;
  *) echo "unknown game: $GAME (intrigue, kingdoms, zweihander, ginlane, hursagmu, core)" >&2; exit 2 ;;
esac
MODULES=${MODULES:-$DEFAULT}
if [ -n "${TEST_PATHS:-}" ]; then
  TESTS=""
  for t in $TEST_PATHS; do TESTS="$TESTS\"$t\", "; done
  TESTS=${TESTS%, }
fi

mkdir -p "$WORK"
if [ ! -x "$VENV/bin/mutmut" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -c "$ROOT/requirements.lock" -e "$ROOT[dev]" "mutmut==$MUTMUT_VERSION"
fi
# The kernel's prompt tests play the example game (examples/toy-game), a plug-in of its own.
if ! "$VENV/bin/python" -c "import referee_toy" 2>/dev/null; then
  "$VENV/bin/pip" install -q --no-deps -e "$ROOT/examples/toy-game"
fi

# A fresh copy of the working tree (uncommitted edits included), without venv or old mutants.
COPY=$WORK/${COPY_NAME:-$GAME}
rm -rf "$COPY"
mkdir -p "$COPY"
rsync -a --exclude .venv --exclude mutants --exclude __pycache__ --exclude .git "$ROOT/" "$COPY/"
# Some tests read the rules texts at ../shared beside the work tree (four levels above a test
# file, which in mutmut's copy is $COPY/mutants/tests/systems/GAME/).
if [ -d "$ROOT/../shared" ]; then ln -s "$(cd "$ROOT/../shared" && pwd)" "$COPY/shared"; fi

# Property tests draw 10 examples each, the same every run (a mutant is run against every test that
# covers it, and at hypothesis' 100 examples a few property tests would take the whole time box).
cat >> "$COPY/tests/conftest.py" <<'EOF2'

settings.register_profile("mutation", max_examples=10, derandomize=True, database=None)
settings.load_profile("mutation")
EOF2

ONLY=""
for m in $MODULES; do ONLY="$ONLY\"$PKG/$m\", "; done
cat >> "$COPY/pyproject.toml" <<EOF

[tool.mutmut]
source_paths = ["src"]
only_mutate = [${ONLY%, }]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-o", "addopts=", "-q"]
pytest_add_cli_args_test_selection = [$TESTS]
use_git_change_detection = false
# Each mutant runs in a process forked from one that has imported the tests but run none: a
# functools.cache filled by the clean run would hide the mutants of the functions it caches.
process_isolation = "forkserver"
also_copy = ["examples", "docs", "README.md", "bench", "Makefile"]
# A refusal's wording is not a rule: the line that raises is left alone (its condition is not).
do_not_mutate_patterns = ['^\\s*raise ']
EOF

cd "$COPY"
echo "mutmut $MUTMUT_VERSION over $PKG: $MODULES against $TESTS (cap ${CAP}s, one worker)"
# SIGINT at the cap: mutmut stops its worker and keeps every verdict reached so far.
# shellcheck disable=SC2086 # MUTANTS: names or globs, split on purpose, never expanded (set -f).
set -f
timeout -s INT "$CAP" "$VENV/bin/mutmut" run --max-children 1 ${MUTANTS:-} || true
set +f
"$VENV/bin/mutmut" results --all true > results.txt || true
for s in killed survived timeout suspicious "no tests" skipped "not checked" segfault; do
  printf '%s: %s\n' "$s" "$(grep -c ": $s\$" results.txt || true)"
done
echo "verdicts per mutant: $COPY/results.txt"
