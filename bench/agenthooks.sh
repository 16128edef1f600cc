#!/usr/bin/env bash
# bench/agenthooks.sh: wall time of one `sessiongate agent-hook claude EVENT`
# process per Claude Code lifecycle event, on a database of 10,000 sessions,
# side by side with a Python no-op hook that reads and parses the same JSON
# (the floor of a hook written in Python) and with `true` (the floor of any
# process spawn). The three run interleaved, run by run, so a load that comes
# and goes on a shared machine weighs on all of them alike. Run by hand:
#
#   bash bench/agenthooks.sh        # RUNS=40 SESSIONS=10000 by default
#   SG_BASE=<revision> bash bench/agenthooks.sh
#   PROTOCOL=../shared/fixtures/ai-agents/SESSION-PROTOCOL_2025-12-22_3821367d2.md bash bench/agenthooks.sh
#
# SG_BASE adds the same hooks built from another revision to the same
# interleaved run, with its own database seeded alike by its own code (an
# older binary refuses a database a newer one migrated).
#
# The Python peer is the interpreter itself: PYTHON, else the one `python3`
# on PATH runs (sys.executable), so a launcher in front of it (a pyenv shim
# is a bash script: about 130 ms here) is not counted as Python's start.
# A second, SYSTEM_PYTHON (default /usr/bin/python3, when it is another
# interpreter), runs beside it: a stock interpreter without site-packages
# starts faster than a developer's.
#
# Needs bash 5 (EPOCHREALTIME), git, go and python3.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-40}
SESSIONS=${SESSIONS:-10000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sessiongate-agentbench.XXXXXX")
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$WORK"' EXIT
REPO=$WORK/repo
BIN=$WORK/bin
mkdir -p "$BIN" "$REPO" "$WORK/in"
unset SESSIONGATE_SESSION SESSIONGATE_DB SESSIONGATE_PROTOCOL CLAUDE_PROJECT_DIR
printf '[user]\n\tname = Bench\n\temail = bench@example.com\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n' > "$WORK/gitconfig"
export GIT_CONFIG_GLOBAL=$WORK/gitconfig GIT_CONFIG_NOSYSTEM=1
say() { printf '== %s\n' "$*" >&2; }

say "building sessiongate"
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$BIN/sessiongate" ./cmd/sessiongate) # as the README installs it
SG=$BIN/sessiongate
SG_BASE=${SG_BASE:-}

cd "$REPO"
git init -q -b main
for d in $(seq 1 20); do mkdir -p "src/d$d"; for f in $(seq 1 50); do echo "$d/$f" > "src/d$d/f$f.txt"; done; done
if [ -n "${PROTOCOL:-}" ]; then
	# A real protocol (e.g. ../shared/fixtures/ai-agents/SESSION-PROTOCOL_*.md):
	# every hook that reads the session's pinned spec decodes all of it.
	cp "$PROTOCOL" SESSION-PROTOCOL.md
else
	cat > SESSION-PROTOCOL.md <<'EOF'
# Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the notes.

## Session End

### Phase 1: QA Validation (BLOCKING)

<!-- gate: command "go test ./..." -->

1. The agent MUST run `go test ./...`.
EOF
fi
git add -A && git commit -q -m "1000 files"
# Files written in the same second as the index are "racily clean": git
# re-reads every one of them on each status until the index is refreshed
# later, and the hooks' git status (--no-optional-locks) never refreshes
# it. A user's repository has long been refreshed by their own git
# commands; without this, each git status here re-hashes all 1,000 files.
sleep 1 && git update-index -q --refresh

say "seeding $SESSIONS sessions"
DB=$REPO/.git/sessiongate/sessiongate.db
(cd "$ROOT" && go run bench/seed.go -db "$DB" -repo "$REPO" -n "$SESSIONS" >&2)
if [ -n "$SG_BASE" ]; then
	say "building and seeding the base revision $SG_BASE"
	git -C "$ROOT" worktree add -q --detach "$WORK/base-src" "$SG_BASE"
	(cd "$WORK/base-src" && CGO_ENABLED=0 go build -o "$BIN/sessiongate-base" ./cmd/sessiongate)
	BASE_DB=$WORK/base.db
	(cd "$WORK/base-src" && go run bench/seed.go -db "$BASE_DB" -repo "$REPO" -n "$SESSIONS" >&2)
	git -C "$ROOT" worktree remove --force "$WORK/base-src"
fi
# base EVENT: the base build's hook, its database named in the environment
# (an assignment, not another process).
base() { SESSIONGATE_DB=$BASE_DB "$BIN/sessiongate-base" agent-hook claude "$1"; }

# Payloads shaped like Claude Code 2.1's (agenthook/testdata/claude).
SID=bench-agent-session
ev() { # name, extra JSON fields
	printf '{"session_id":"%s","transcript_path":"/tmp/t.jsonl","cwd":"%s","hook_event_name":"%s"%s}\n' "$SID" "$REPO" "$1" "${2:+,$2}"
}
ev SessionStart '"source":"startup"' > "$WORK/in/SessionStart.json"
ev UserPromptSubmit '"prompt":"benchmark the hooks"' > "$WORK/in/UserPromptSubmit.json"
ev PreToolUse '"tool_name":"Write","tool_input":{"file_path":"'"$REPO"'/src/new.txt","content":"x"},"tool_use_id":"toolu_w"' > "$WORK/in/PreToolUse-Write.json"
ev PreToolUse '"tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":"toolu_b"' > "$WORK/in/PreToolUse-Bash.json"
ev PreToolUse '"tool_name":"mcp__sessiongate__get_state","tool_input":{"session_id":"x"},"tool_use_id":"toolu_m"' > "$WORK/in/PreToolUse-MCP.json"
ev PostToolUse '"tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_use_id":"toolu_b","duration_ms":812,"tool_response":{"stdout":"ok  \tpkg\t0.8s","stderr":"","interrupted":false,"isImage":false}' > "$WORK/in/PostToolUse-Bash.json"
ev Stop '"stop_hook_active":false' > "$WORK/in/Stop.json"
# The same stop after a turn that edited a file: the mark moved, so the
# hook asks git whether anything is uncommitted and blocks the stop.
cp "$WORK/in/Stop.json" "$WORK/in/Stop-edited.json"

# Bind the agent session (starts the sessiongate session) and check each
# payload answers one JSON object.
for f in "$WORK"/in/*.json; do
	e=$(basename "$f" .json); e=${e%%-*}
	out=$("$SG" agent-hook claude "$e" < "$f")
	python3 -c 'import json,sys; json.loads(sys.argv[1])' "$out" || { say "$e answered $out"; exit 1; }
	if [ -n "$SG_BASE" ]; then
		out=$(base "$e" < "$f")
		python3 -c 'import json,sys; json.loads(sys.argv[1])' "$out" || { say "base: $e answered $out"; exit 1; }
	fi
done

PY=${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}
PY2=${SYSTEM_PYTHON:-/usr/bin/python3}
if [ ! -x "$PY2" ] || [ "$(readlink -f "$PY2")" = "$(readlink -f "$PY")" ]; then PY2=; fi
cat > "$WORK/noop.py" <<'EOF'
import json, sys
json.load(sys.stdin)
print("{}")
EOF

stats() { sort -n | awk '{a[NR]=$1; s+=$1} END {
	m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2
	printf "%.2f\t%.2f\t%.2f\n", m/1000, a[1]/1000, a[NR]/1000 }'; }

events=(SessionStart UserPromptSubmit PreToolUse-Write PreToolUse-Bash PreToolUse-MCP PostToolUse-Bash Stop Stop-edited)
# Cumulative CPU time (user+sys) of this shell's children in microseconds,
# from the times builtin (no process of its own).
cpu_of() { awk 'function us(x,  m, s) { m = x; sub(/m.*/, "", m); s = x; sub(/.*m/, "", s); sub(/s$/, "", s); return (m * 60 + s) * 1000000 }
	FNR == 2 { t = us($1) + us($2) } END { printf "%d", t }' "$1"; }
# measure EVENT VARIANT COMMAND...: one run; stdin comes from the caller.
measure() {
	local e=$1 v=$2
	shift 2
	times > "$WORK/t0"
	local t0=${EPOCHREALTIME/./}
	"$@" > /dev/null
	local t1=${EPOCHREALTIME/./}
	times > "$WORK/t1"
	if ((run >= 0)); then
		printf '%s\t%s\t%d\t%d\t%d\n' "$e" "$v" $((t1 - t0)) $(($(cpu_of "$WORK/t1") - $(cpu_of "$WORK/t0"))) "$run" >> "$WORK/times.tsv"
	fi
}
say "timing ${#events[@]} events x (sessiongate, python no-op, /bin/true), $RUNS runs interleaved after 3 warm-ups; python: $PY${PY2:+ and $PY2}"
: > "$WORK/times.tsv"
for ((run = -3; run < RUNS; run++)); do
	for e in "${events[@]}"; do
		name=${e%%-*}
		in=$WORK/in/$e.json
		[ "$e" != Stop-edited ] || echo "$run" >> "$REPO/src/d1/f1.txt" # untimed
		# A new random order each round, so none always runs first.
		for v in $(printf '%s\n' sessiongate python true ${SG_BASE:+base} ${PY2:+python2} | shuf); do
			case $v in
			sessiongate) measure "$e" sessiongate "$SG" agent-hook claude "$name" < "$in" ;;
			base) measure "$e" base base "$name" < "$in" ;;
			python) measure "$e" python "$PY" "$WORK/noop.py" < "$in" ;;
			python2) measure "$e" python2 "$PY2" "$WORK/noop.py" < "$in" ;;
			true) measure "$e" true /bin/true < "$in" ;;
			esac
		done
	done
done
# The edited stop took the path it claims: git asked, the stop blocked.
"$SG" agent-hook claude UserPromptSubmit < "$WORK/in/UserPromptSubmit.json" > /dev/null
echo edit >> "$REPO/src/d1/f1.txt"
out=$("$SG" agent-hook claude Stop < "$WORK/in/Stop-edited.json")
case $out in *'"decision":"block"'*) ;; *) say "the edited stop was not blocked: $out"; exit 1 ;; esac
col() { awk -F'\t' -v e="$1" -v v="$2" -v c="$3" '$1==e && $2==v {print $c}' "$WORK/times.tsv" | stats; }
echo
echo "machine: $(nproc) CPU $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "database: $((SESSIONS + 1)) sessions; $RUNS runs each, interleaved, after 3 warm-ups"
echo "python: $PY ($("$PY" --version 2>&1))${PY2:+; second python: $PY2 ($("$PY2" --version 2>&1))}"
echo
# paired EVENT A B: the median over the rounds of A's wall time / B's.
paired() { awk -F'\t' -v e="$1" -v a="$2" -v b="$3" '$1==e && $2==a {x[$5]=$3} $1==e && $2==b {y[$5]=$3}
	END {for (r in x) if (r in y && y[r] > 0) print x[r] / y[r]}' "$WORK/times.tsv" | sort -g | awk '{v[NR]=$1}
	END {m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.1fx", m}'; }
head="| event | sessiongate wall ms | python no-op wall ms | /bin/true wall ms | python / sessiongate (paired) | sessiongate CPU ms | python CPU ms |"
rule="| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
[ -z "$PY2" ] || { head+=" second python wall ms | second python / sessiongate (paired) |"; rule+=" ---: | ---: |"; }
[ -z "$SG_BASE" ] || { head+=" $SG_BASE wall ms | $SG_BASE / sessiongate (paired) |"; rule+=" ---: | ---: |"; }
echo "$head"
echo "$rule"
for e in "${events[@]}"; do
	read -r sg sgmin sgmax < <(col "$e" sessiongate 3)
	read -r py pymin pymax < <(col "$e" python 3)
	read -r tr trmin trmax < <(col "$e" true 3)
	read -r sgc _ _ < <(col "$e" sessiongate 4)
	read -r pyc _ _ < <(col "$e" python 4)
	line=$(printf '| %s | %s (%s-%s) | %s (%s-%s) | %s | %s | %s | %s |' "$e" "$sg" "$sgmin" "$sgmax" "$py" "$pymin" "$pymax" "$tr" "$(paired "$e" python sessiongate)" "$sgc" "$pyc")
	if [ -n "$PY2" ]; then
		read -r p2 p2min p2max < <(col "$e" python2 3)
		line+=$(printf ' %s (%s-%s) | %s |' "$p2" "$p2min" "$p2max" "$(paired "$e" python2 sessiongate)")
	fi
	if [ -n "$SG_BASE" ]; then
		read -r bs bsmin bsmax < <(col "$e" base 3)
		line+=$(printf ' %s (%s-%s) | %s |' "$bs" "$bsmin" "$bsmax" "$(paired "$e" base sessiongate)")
	fi
	echo "$line"
done
# Machine-readable rows for bench/figures (ParseAgentHooks): event,
# sessiongate and python median wall ms, the paired ratio, median CPU ms,
# and /bin/true's median wall ms (the spawn floor: a machine whose process
# start is slow weighs on sessiongate's many-page binary more than on
# Python's CPU-bound start).
echo
for e in "${events[@]}"; do
	read -r sg _ _ < <(col "$e" sessiongate 3)
	read -r py _ _ < <(col "$e" python 3)
	read -r tr _ _ < <(col "$e" true 3)
	read -r sgc _ _ < <(col "$e" sessiongate 4)
	read -r pyc _ _ < <(col "$e" python 4)
	printf 'agenthook\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$e" "$sg" "$py" "$(paired "$e" python sessiongate)" "$sgc" "$pyc" "$tr"
done
