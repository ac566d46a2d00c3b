# Start a throwaway-safe PostgreSQL cluster for tests (sourced by run-tests.sh).
PG_URL="postgresql+psycopg://companion:companion@127.0.0.1:5432/companion"

start_postgres() {
  local version
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  if ! pg_lsclusters -h 2>/dev/null | grep -q "^$version main"; then
    pg_createcluster "$version" main >/dev/null
  fi
  pg_ctlcluster "$version" main start 2>/dev/null || true
  for _ in $(seq 1 30); do
    su postgres -c "psql -qAtc 'select 1'" >/dev/null 2>&1 && break
    sleep 0.5
  done
  su postgres -c "psql -qc \"CREATE USER companion PASSWORD 'companion' SUPERUSER;\"" >/dev/null 2>&1 || true
  su postgres -c "createdb -O companion companion" >/dev/null 2>&1 || true
  PG_VERSION=$version
}

stop_postgres() {
  pg_ctlcluster "${PG_VERSION:-15}" main stop 2>/dev/null || true
}
