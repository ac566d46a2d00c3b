#!/usr/bin/env bash
# The whole suite in four steps, each timed (the times are printed at the end):
#   1. everything but the browser tests on SQLite, one pytest-xdist worker per
#      core; each worker's databases are SQLite files in its own tmp dir;
#   2. the browser tests (tests/e2e), two workers: each runs its own live
#      server (a free port, its own SQLite file) and its own Chromium; one
#      test at a time goes to whichever worker is free, the longest first
#      (tests/e2e/conftest.py, LONGEST_FIRST);
#   3. on PostgreSQL, only the tests marked ``postgres`` (tests/conftest.py,
#      POSTGRES_TESTS says which and why: where the two databases differ),
#      one worker per core, each with its own database (companion_gw0, ...);
#   4. the fault test, short (bench/faults.py --quick): the production stack
#      through its faults, the record checked against every acknowledged save.
# Steps 4 then 3 run in the background beside step 2, whose browsers leave
# about half of each core idle (they wait on polls and a person's pace).
# PostgreSQL starts in the background while step 1 runs.  Every step runs even
# when an earlier one failed; the script fails if any did (or selected no test).
# SKIP_POSTGRES=1 leaves step 3 out; PYTEST_WORKERS and E2E_WORKERS set the workers.
set -uo pipefail
cd "$(dirname "$0")/.."
# Let pytest keep what it compiles in __pycache__: it rewrites the asserts of
# every test module and of its plugins' packages (schemathesis, hypothesis:
# some 440 modules, 10 s per process), and each step's processes would do it
# again when PYTHONDONTWRITEBYTECODE is set, as it is on some machines.
unset PYTHONDONTWRITEBYTECODE
BIN=.venv/bin
PYTEST=("$BIN/pytest" -q -p no:cacheprovider)
WORKERS=${PYTEST_WORKERS:-auto}
E2E_WORKERS=${E2E_WORKERS:-2}
TIMES=()
FAILED=()

step() {
  local name=$1 start=$SECONDS rc=0
  shift
  echo "== $name"
  "$@" || rc=$?
  TIMES+=("$(printf '%-42s %4d s' "$name" $((SECONDS - start)))")
  case $rc in
    0) ;;
    5) FAILED+=("$name (no test selected)") ;;
    *) FAILED+=("$name (exit $rc)") ;;
  esac
}

finish() {
  [ -n "${PG_STARTED:-}" ] && stop_postgres
  echo "== times"
  printf '%s\n' "${TIMES[@]}"
  if [ ${#FAILED[@]} -gt 0 ]; then
    printf 'FAILED: %s\n' "${FAILED[@]}"
    exit 1
  fi
}
trap finish EXIT

if [ "${SKIP_POSTGRES:-0}" != 1 ]; then
  source scripts/postgres.sh
  PG_LOG=$(mktemp)
  (start_postgres) >"$PG_LOG" 2>&1 &
  PG_STARTING=$!
  PG_VERSION=$(ls /usr/lib/postgresql | sort -n | tail -1) # for stop_postgres
  PG_STARTED=1
fi

step "1. SQLite: engine, bots, services, web" "${PYTEST[@]}" -n "$WORKERS" --dist worksteal -m "not e2e"

# The browser tests (step 2) leave about half of each core idle: their
# browsers wait on the pages' polls and a person's pace.  The fault test
# (step 4: mostly waiting its faults out) and then the tests on PostgreSQL
# (step 3) run in the background beside them, one after the other (the fault
# test restarts PostgreSQL); their output is printed once step 2 is done.
PG_READY=0
if [ "${SKIP_POSTGRES:-0}" != 1 ]; then
  # Started in the background; started again (a no-op when it runs) in case
  # something stopped it meanwhile, e.g. another checkout's run on this machine.
  if wait "$PG_STARTING" && start_postgres >>"$PG_LOG" 2>&1 && pg_isready -q -h 127.0.0.1; then
    PG_READY=1
    FAULTS_LOG=$(mktemp)
    PG_TESTS_LOG=$(mktemp)
    (
      # Redis down, PostgreSQL restarted, a worker killed, reloads, a slow
      # database, on gunicorn + PostgreSQL + Redis: every acknowledged save kept.
      start=$SECONDS
      "$BIN/python" bench/faults.py --quick >"$FAULTS_LOG" 2>&1
      echo "$? $((SECONDS - start))" >"$FAULTS_LOG.rc"
      # The fault test restarted PostgreSQL: make sure it runs before step 3.
      start_postgres >>"$PG_LOG" 2>&1
      # The stateful model test runs a shorter program here: every step is a
      # few round trips to the server, and step 1 ran the full one already.
      start=$SECONDS
      env TEST_DATABASE_URL="$PG_URL" RECORD_MODEL_EXAMPLES=12 \
        "${PYTEST[@]}" -n "$WORKERS" --dist worksteal -m "postgres and not e2e" >"$PG_TESTS_LOG" 2>&1
      echo "$? $((SECONDS - start))" >"$PG_TESTS_LOG.rc"
    ) &
    BESIDE_PID=$!
  fi
fi

step "2. SQLite: browser tests (Chromium)" "${PYTEST[@]}" -n "$E2E_WORKERS" --dist load --maxschedchunk 1 \
  --durations=15 -m e2e tests/e2e

# What ran beside step 2: its output, its time (from its own start), its verdict.
beside() {
  local name=$1 log=$2 rc took
  echo "== $name"
  cat "$log"
  read -r rc took <"$log.rc"
  TIMES+=("$(printf '%-42s %4d s' "$name" "$took")")
  case $rc in
    0) ;;
    5) FAILED+=("$name (no test selected)") ;;
    *) FAILED+=("$name (exit $rc)") ;;
  esac
}

if [ "${SKIP_POSTGRES:-0}" != 1 ]; then
  if [ "$PG_READY" = 1 ]; then
    wait "$BESIDE_PID"
    beside "4. Faults, short (beside 2)" "$FAULTS_LOG"
    beside "3. PostgreSQL: marked postgres (beside 2)" "$PG_TESTS_LOG"
  else
    cat "$PG_LOG" >&2
    FAILED+=("PostgreSQL did not start")
  fi
fi
