#!/usr/bin/env bash
# The whole suite: engine, web (SQLite, then PostgreSQL), browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

# 1. Everything on SQLite, browser tests included.
$BIN/pytest -q -p no:cacheprovider

# 2. The web tests again on PostgreSQL, started here and stopped on exit.
if [ "${SKIP_POSTGRES:-0}" != 1 ]; then
  source scripts/postgres.sh
  start_postgres
  trap stop_postgres EXIT
  TEST_DATABASE_URL="$PG_URL" $BIN/pytest -q -p no:cacheprovider tests/web -m "not e2e"
fi
