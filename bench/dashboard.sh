#!/usr/bin/env bash
# bench/dashboard.sh: the dashboard as a client sees it, through the real
# `sessiongate serve`: `/` (overview) against `/sessions` (a page of the
# list, the peer) and, on PostgreSQL, `/team`, interleaved request by
# request, on databases of SIZES sessions (bench/dashseed.go), SQLite and,
# with PG=1, PostgreSQL on a throwaway cluster (initdb, pg_ctl; as user
# nobody under root). Prints the median and p90 of curl's time_total per
# page, the page size and the median ratio to /sessions. Run by hand:
#
#   bash bench/dashboard.sh                      # SIZES="10000 100000 1000000" ROUNDS=60
#   PG=1 SIZES=1000000 bash bench/dashboard.sh   # PostgreSQL too
#   PG=1 SQLITE=0 PORT=7600 ...                  # PostgreSQL only, beside a running SQLite run
#
# Seeded databases are kept in $CACHE (default $TMPDIR/sessiongate-dash)
# by size and seed version: a million sessions take minutes to seed.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${SIZES:-"10000 100000 1000000"}
ROUNDS=${ROUNDS:-60}
PG=${PG:-0}
SQLITE=${SQLITE:-1}
SEED_VERSION=1
CACHE=${CACHE:-${TMPDIR:-/tmp}/sessiongate-dash}
NOW=2026-11-28T00:00:00Z # the seed's year ends here; serve's clock is the machine's
mkdir -p "$CACHE"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sessiongate-dashbench.XXXXXX")
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	if [ -n "${PGDATA_DIR:-}" ]; then pgrun pg_ctl stop -m fast -D "$PGDATA_DIR" >/dev/null 2>&1 || true; fi
	rm -rf "$WORK"
}
trap cleanup EXIT
say() { printf '== %s\n' "$*" >&2; }

unset SESSIONGATE_SESSION SESSIONGATE_DB SESSIONGATE_PROTOCOL
export GIT_CONFIG_GLOBAL=$WORK/gitconfig GIT_CONFIG_NOSYSTEM=1
printf '[user]\n\tname = Bench\n\temail = bench@example.com\n' > "$GIT_CONFIG_GLOBAL"

say "building sessiongate and the seeder"
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$WORK/sessiongate" ./cmd/sessiongate && go build -o "$WORK/dashseed" bench/dashseed.go)
SG=$WORK/sessiongate

# serve runs from a repository with the starter protocol.
REPO=$WORK/repo
git init -q "$REPO"
(cd "$REPO" && "$SG" init >/dev/null && git add -A && git commit -qm init)

port=${PORT:-7500} # PORT: another base when two runs (or two engineers) share the machine
# measure DB LABEL PATHS...: serve DB, then ROUNDS rounds of each path in
# turn (the order rotates each round), one curl per request.
measure() {
	local db=$1 label=$2
	shift 2
	port=$((port + 1))
	(cd "$REPO" && exec "$SG" --db "$db" serve --addr "127.0.0.1:$port" >"$WORK/serve.log" 2>&1) &
	local pid=$!
	PIDS+=("$pid")
	for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/sessions" && break; sleep 0.2; done
	local paths=("$@") out=$WORK/times
	: >"$out"
	for p in "${paths[@]}"; do curl -s -o /dev/null "http://127.0.0.1:$port$p"; done # warm
	for r in $(seq "$ROUNDS"); do
		local n=${#paths[@]}
		for i in $(seq 0 $((n - 1))); do
			local p=${paths[$(((i + r) % n))]}
			curl -s -o /dev/null -w "$p %{time_total} %{size_download}\n" "http://127.0.0.1:$port$p" >>"$out"
		done
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	local base
	base=$(awk '$1 == "/sessions" { print $2 }' "$out" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	for p in "${paths[@]}"; do
		awk -v p="$p" '$1 == p { print $2, $3 }' "$out" | sort -n | awk -v label="$label" -v p="$p" -v base="$base" '
			{ t[NR] = $1; size = $2 }
			END { med = t[int((NR + 1) / 2)]; printf "%s\t%s\tmedian %.2f ms\tp90 %.2f ms\t%.1f KB\t%.2fx /sessions\n", label, p, med * 1000, t[int(NR * 0.9)] * 1000, size / 1024, med / base }'
	done
}

if [ "$SQLITE" = 1 ]; then
	for n in $SIZES; do
		db=$CACHE/sqlite-v$SEED_VERSION-$n.db
		if [ ! -f "$db" ]; then
			say "seeding $n sessions (SQLite)"
			"$WORK/dashseed" -db "$db.building" -n "$n" -now "$NOW" >&2
			rm -f "$db.building-wal" "$db.building-shm"
			mv "$db.building" "$db"
		fi
		measure "$db" "sqlite $n" / /sessions
	done
fi

if [ "$PG" = 1 ]; then
	PGBIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
	PGBASE=${PGBASE:-$CACHE/pg-v$SEED_VERSION}
	PGDATA_DIR=$PGBASE/data
	SOCK=$PGBASE/sock
	pgrun() {
		if [ "$(id -u)" = 0 ]; then
			runuser -u nobody -- env HOME="$PGBASE" "$PGBIN/$@"
		else
			"$PGBIN/$@"
		fi
	}
	if [ ! -d "$PGDATA_DIR" ]; then
		mkdir -p "$SOCK"
		[ "$(id -u)" = 0 ] && chown -R nobody "$PGBASE"
		pgrun initdb -D "$PGDATA_DIR" -U sessiongate --auth=trust >/dev/null
	fi
	if pgrun pg_ctl status -D "$PGDATA_DIR" >/dev/null 2>&1; then
		PGDATA_DIR= # running before: leave it running
	else
		pgrun pg_ctl start -w -D "$PGDATA_DIR" -l "$PGBASE/log" \
			-o "-c listen_addresses='' -c unix_socket_directories=$SOCK -c fsync=off" >/dev/null
	fi
	for n in $SIZES; do
		url="postgres://sessiongate@/s$n?host=$SOCK"
		if ! "$PGBIN/psql" -h "$SOCK" -U sessiongate -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 's$n'" | grep -q 1; then
			say "seeding $n sessions (PostgreSQL)"
			# Seeded under another name and renamed when done, as the SQLite file is
			# moved: a seed cut short must not be measured as a full database.
			"$PGBIN/dropdb" -h "$SOCK" -U sessiongate --if-exists "s${n}_building"
			"$PGBIN/createdb" -h "$SOCK" -U sessiongate "s${n}_building"
			"$WORK/dashseed" -db "postgres://sessiongate@/s${n}_building?host=$SOCK" -n "$n" -now "$NOW" >&2
			"$PGBIN/psql" -h "$SOCK" -U sessiongate -d postgres -qc "ALTER DATABASE s${n}_building RENAME TO s$n"
		fi
		measure "$url" "postgres $n" / /sessions /team
	done
fi
say "versions: $("$SG" version | head -1); $(git --version); load $(cut -d' ' -f1-3 /proc/loadavg)"
