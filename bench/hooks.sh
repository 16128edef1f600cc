#!/usr/bin/env bash
# bench/hooks.sh: wall time of `git commit` in a repository with 20,000
# tracked files and a database of 10,000 sessions, with
#   - no hooks, and a no-op sh pre-commit hook (what any hook costs),
#   - a pre-commit hook that starts a Go program doing nothing, and one that
#     starts sessiongate doing nothing (`version`): the floor of a hook
#     that starts this binary,
#   - sessiongate's pre-commit hook alone, and all its hooks
#     (pre-commit, commit-msg and post-commit run on a commit),
#   - three no-op sh hooks (pre-commit, commit-msg, post-commit: the floor of
#     the three hooks sessiongate installs),
#   - a no-op pre-commit hook run by lefthook, by husky 9 and by the
#     pre-commit framework,
# and each hook process alone as git times it (trace2).
# Reports medians of wall time and of CPU time. Run by hand, not in CI:
#
#   bash bench/hooks.sh            # RUNS=40 FILES=20000 SESSIONS=10000 by default
#
# Needs git, go and shuf. The default timer is a loop that interleaves the
# variants in a new random order each round (bash's EPOCHREALTIME for wall time, the times builtin for CPU
# time); TIMER=hyperfine uses hyperfine (apt-get install hyperfine), which
# also times the hook process alone. lefthook comes from PATH, else
# `go install github.com/evilmartians/lefthook/v2@latest`, else npm's lefthook@2
# package; husky from PEERS/node_modules/husky (PEERS: a folder where
# `npm install --ignore-scripts lefthook@2 husky@9` ran; lefthook is taken
# from there too), else npm's husky package in the work folder; pre-commit
# from PATH (Debian package pre-commit). A tool that is missing is skipped
# with a note. The versions of every peer go into the report.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-40}
FILES=${FILES:-20000}
SESSIONS=${SESSIONS:-10000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sessiongate-bench.XXXXXX")
# KEEP=1 keeps the work folder (repository, database, hooks) for profiling.
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$WORK"' EXIT
REPO=$WORK/repo
BIN=$WORK/bin
mkdir -p "$BIN" "$REPO"

# A hermetic git: no user or system config, no inherited session.
unset SESSIONGATE_SESSION SESSIONGATE_DB SESSIONGATE_PROTOCOL SESSIONGATE_BYPASS
# No auto gc or maintenance: a detached gc of 20,000 loose objects would
# run beside the timed commits.
printf '[user]\n\tname = Bench\n\temail = bench@example.com\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n' > "$WORK/gitconfig"
export GIT_CONFIG_GLOBAL=$WORK/gitconfig GIT_CONFIG_NOSYSTEM=1
export PRE_COMMIT_HOME=$WORK/pre-commit-home

say() { printf '== %s\n' "$*" >&2; }
say "work folder $WORK"

say "building sessiongate"
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$BIN/sessiongate" ./cmd/sessiongate) # as the README installs it
SG=$BIN/sessiongate

PEERS=${PEERS:-}
LEFTHOOK=$(command -v lefthook || true)
if [ -n "$PEERS" ] && ls "$PEERS"/node_modules/lefthook-*/bin/lefthook >/dev/null 2>&1; then
	LEFTHOOK=$(ls "$PEERS"/node_modules/lefthook-*/bin/lefthook | head -1)
fi
HUSKY=
if [ -n "$PEERS" ] && [ -f "$PEERS/node_modules/husky/husky" ]; then
	HUSKY=$PEERS/node_modules/husky
elif command -v npm >/dev/null && (cd "$WORK" && npm install --silent --ignore-scripts --no-audit --no-fund --prefix "$WORK/npm-husky" husky@9) >/dev/null 2>&1; then
	HUSKY=$WORK/npm-husky/node_modules/husky
else
	say "husky unavailable: its row is skipped"
fi
if [ -z "$LEFTHOOK" ]; then
	say "installing lefthook"
	# lefthook 2's module path ends in /v2: `lefthook@latest` is the
	# last 1.x (1.13.6), which is not the peer issue 29 names.
	if GOBIN=$BIN go install github.com/evilmartians/lefthook/v2@latest >/dev/null 2>&1; then
		LEFTHOOK=$BIN/lefthook
	# --ignore-scripts: lefthook's postinstall would install hooks into the
	# repository npm runs in. The platform package needs no script.
	elif command -v npm >/dev/null && (cd "$WORK" && npm install --silent --ignore-scripts --no-audit --no-fund --prefix "$WORK/npm" lefthook@2) >/dev/null 2>&1; then
		# The platform package's native binary, not the node wrapper in .bin.
		LEFTHOOK=$(ls "$WORK"/npm/node_modules/lefthook-*/bin/lefthook | head -1)
	else
		say "lefthook unavailable: its row is skipped"
	fi
fi
PRECOMMIT=$(command -v pre-commit || true)
[ -n "$PRECOMMIT" ] || say "pre-commit unavailable: its row is skipped"

say "creating $FILES tracked files"
cd "$REPO"
git init -q -b main
per=100
for ((d = 0; d < FILES / per; d++)); do
	mkdir -p "src/d$d"
	for ((f = 0; f < per; f++)); do
		echo "file $d/$f" > "src/d$d/f$f.txt"
	done
done
cat > SESSION-PROTOCOL.md <<'EOF'
# Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the notes.

## Session End

### Phase 1: QA Validation (BLOCKING)

<!-- gate: id=QA_VALIDATION -->
<!-- gate: evidence tool_output -->

1. The agent MUST run the tests.
EOF
cat > sessiongate.yaml <<'EOF'
require_session: true
hooks:
  pre-commit: []
  pre-push: [QA_VALIDATION]
EOF
cat > lefthook.yml <<'EOF'
pre-commit:
  commands:
    noop:
      run: "true"
EOF
cat > .pre-commit-config.yaml <<'EOF'
repos:
  - repo: local
    hooks:
      - id: noop
        name: no-op
        entry: "true"
        language: system
        pass_filenames: false
        always_run: true
EOF
echo 0 > bench.txt
git add -A
git commit -q -m "20k files"
git gc -q # packed, like a real repository's history

say "seeding $SESSIONS sessions"
DB=$(git rev-parse --path-format=absolute --git-common-dir)/sessiongate/sessiongate.db
(cd "$ROOT" && go run bench/seed.go -db "$DB" -repo "$REPO" -n "$SESSIONS" >&2)

# Each sessiongate variant commits in its own worktree (one branch, one
# session each), as a user would: its hooks see only its own commits, so the
# reconciliation a commit leaves to the next hook is timed as it happens.
# The other variants commit in the main worktree.
SG_BASE=${SG_BASE:-}
sg_variants=(sg-pre-commit sg-all)
if [ -n "$SG_BASE" ]; then
	say "building the base revision $SG_BASE"
	git -C "$ROOT" worktree add -q --detach "$WORK/base-src" "$SG_BASE"
	(cd "$WORK/base-src" && CGO_ENABLED=0 go build -o "$BIN/sessiongate-base" ./cmd/sessiongate)
	# Its own database, seeded alike by its own code: an older binary
	# refuses a database a newer one migrated.
	BASE_DB=$WORK/base.db
	(cd "$WORK/base-src" && go run bench/seed.go -db "$BASE_DB" -repo "$REPO" -n "$SESSIONS" >&2)
	git -C "$ROOT" worktree remove --force "$WORK/base-src"
	sg_variants+=(base-all)
fi
sg_of() { if [ "$1" = base-all ]; then echo "$BIN/sessiongate-base"; else echo "$SG"; fi; }
# env_of VARIANT: the environment its commands run with (the base's database).
env_of() { if [ "$1" = base-all ]; then echo "SESSIONGATE_DB=$BASE_DB"; else echo "SESSIONGATE_UNUSED=1"; fi; }
dir_of() { case $1 in sg-* | base-*) echo "$WORK/wt-$1" ;; *) echo "$REPO" ;; esac; }
for v in "${sg_variants[@]}"; do
	git worktree add -q -b "bench-$v" "$(dir_of "$v")"
	(
		cd "$(dir_of "$v")"
		export "$(env_of "$v")"
		sgv=$(sg_of "$v")
		id=$("$sgv" session start --objective "benchmark $v" | sed -n 's/^export SESSIONGATE_SESSION=//p')
		"$sgv" session evidence --session "$id" --phase CONTEXT_RETRIEVAL --type tool_output --value "read" >/dev/null
		"$sgv" session advance --session "$id" --to WORKING >/dev/null
	)
done

# One hooks folder per variant; each commit picks one with -c core.hooksPath.
mkdir -p "$WORK/hooks-none"
install_sg() { # binary, folder, install flags...
	local sgv=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	git config core.hooksPath "$dir"
	"$sgv" install "$@" >/dev/null
	git config --unset core.hooksPath
}
# The floor: any pre-commit hook costs a fork and exec, and git reads the
# index again after it (a hook may have changed it).
mkdir -p "$WORK/hooks-noop-sh"
printf '#!/bin/sh\nexit 0\n' > "$WORK/hooks-noop-sh/pre-commit"
chmod +x "$WORK/hooks-noop-sh/pre-commit"
# Three no-op sh hooks: what any tool's three hooks cost a commit.
mkdir -p "$WORK/hooks-noop-sh-all"
for h in pre-commit commit-msg post-commit; do
	printf '#!/bin/sh\nexit 0\n' > "$WORK/hooks-noop-sh-all/$h"
	chmod +x "$WORK/hooks-noop-sh-all/$h"
done
# Two more floors, to show what a hook that starts a Go program pays
# before doing anything: a Go program that does nothing (the runtime's
# start and exit), and this binary doing nothing (`sessiongate version`:
# the runtime plus the package init of everything linked into it).
mkdir -p "$WORK/hello" "$WORK/hooks-floor-go" "$WORK/hooks-floor-sg"
printf 'module hello\n\ngo 1.22\n' > "$WORK/hello/go.mod"
printf 'package main\n\nfunc main() {}\n' > "$WORK/hello/main.go"
(cd "$WORK/hello" && CGO_ENABLED=0 go build -o "$BIN/hello" .)
printf '#!/bin/sh\nexec %s\n' "$BIN/hello" > "$WORK/hooks-floor-go/pre-commit"
printf '#!/bin/sh\nexec %s version >/dev/null\n' "$SG" > "$WORK/hooks-floor-sg/pre-commit"
chmod +x "$WORK/hooks-floor-go/pre-commit" "$WORK/hooks-floor-sg/pre-commit"
install_sg "$SG" "$WORK/hooks-sg-pre-commit" --hooks pre-commit
install_sg "$SG" "$WORK/hooks-sg-all"
[ -z "$SG_BASE" ] || install_sg "$BIN/sessiongate-base" "$WORK/hooks-base-all"
move_hooks() { # folder: move what a tool installed into .git/hooks there
	mkdir -p "$1"
	find .git/hooks -maxdepth 1 -type f ! -name '*.sample' -exec mv {} "$1/" \;
}
if [ -n "$LEFTHOOK" ]; then
	PATH=$(dirname "$LEFTHOOK"):$PATH
	export PATH
	"$LEFTHOOK" install >/dev/null
	move_hooks "$WORK/hooks-lefthook"
fi
if [ -n "$HUSKY" ]; then
	# husky 9's layout, as `npx husky init` writes it: the hooks folder
	# (core.hooksPath) is .husky/_, whose scripts source its `h`, which runs
	# .husky/<hook> with sh -e. The no-op user hook is `true`.
	mkdir -p "$WORK/husky/_"
	cp "$HUSKY/husky" "$WORK/husky/_/h"
	for h in pre-commit commit-msg post-commit; do
		printf '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n' > "$WORK/husky/_/$h"
		chmod +x "$WORK/husky/_/$h"
	done
	printf 'true\n' > "$WORK/husky/pre-commit"
	ln -s "$WORK/husky/_" "$WORK/hooks-husky"
fi
if [ -n "$PRECOMMIT" ]; then
	"$PRECOMMIT" install >/dev/null
	"$PRECOMMIT" install-hooks >/dev/null
	move_hooks "$WORK/hooks-pre-commit"
fi

variants=(none noop-sh noop-sh-all floor-go floor-sg "${sg_variants[@]}")
[ -n "$LEFTHOOK" ] && variants+=(lefthook)
[ -n "$HUSKY" ] && variants+=(husky)
[ -n "$PRECOMMIT" ] && variants+=(pre-commit)

prepare() { echo "$RANDOM$RANDOM" >> "$1/bench.txt" && git -C "$1" add bench.txt; }
results=$WORK/results.tsv
: > "$results"
for v in "${variants[@]}"; do
	# A check that the variant works before timing it.
	prepare "$(dir_of "$v")" && env "$(env_of "$v")" git -C "$(dir_of "$v")" -c core.hooksPath="$WORK/hooks-$v" commit -q -m check ||
		{ say "variant $v failed to commit"; exit 1; }
done
# TIMER=loop (default) interleaves the variants run by run, so a load that
# comes and goes on a shared machine weighs on all of them alike, and also
# records the CPU time (user+system) of git and its hooks, which other
# processes' load barely moves. TIMER=hyperfine times each variant in turn.
TIMER=${TIMER:-loop}
# stats: median, mean, min, max of the microsecond values on stdin, in ms.
stats() { sort -n | awk '{a[NR]=$1; s+=$1} END {
	m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2
	printf "%.1f\t%.1f\t%.1f\t%.1f", m/1000, s/NR/1000, a[1]/1000, a[NR]/1000 }'; }
if [ "$TIMER" = hyperfine ]; then
	for v in "${variants[@]}"; do
		say "timing $v with hyperfine ($RUNS runs)"
		d=$(dir_of "$v")
		hyperfine --style none --warmup 3 --runs "$RUNS" --prepare "echo \$RANDOM >> $d/bench.txt && git -C $d add bench.txt" --export-json "$WORK/$v.json" \
			"git -C $d -c core.hooksPath=$WORK/hooks-$v commit -q -m bench" >/dev/null
		# hyperfine reports CPU time as a mean only.
		python3 - "$WORK/$v.json" "$v" >> "$results" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
ms = lambda x: f"{x*1000:.1f}"
print("\t".join([sys.argv[2], ms(r["median"]), ms(r["mean"]), ms(r["min"]), ms(r["max"]), ms(r["user"] + r["system"]), "-"]))
EOF
	done
else
	say "timing ${variants[*]} interleaved ($RUNS runs each, after 3 warm-ups)"
	# Cumulative CPU time of this shell's children, in microseconds, from
	# the times builtin (run in this shell: a subshell would see its own).
	cpu_of() { awk 'function us(x,  m, s) { m = x; sub(/m.*/, "", m); s = x; sub(/.*m/, "", s); sub(/s$/, "", s); return (m * 60 + s) * 1000000 }
		FNR == 2 { t = us($1) + us($2) } END { printf "%d", t }' "$1"; }
	for ((i = 0; i < RUNS + 3; i++)); do
		# A new random order each round: no variant always runs right
		# after another (a cache or a CPU frequency left warm by it).
		for v in $(printf '%s\n' "${variants[@]}" | shuf); do
			d=$(dir_of "$v")
			prepare "$d"
			times > "$WORK/t0"
			s=$EPOCHREALTIME
			env "$(env_of "$v")" git -C "$d" -c core.hooksPath="$WORK/hooks-$v" commit -q -m bench
			e=$EPOCHREALTIME
			times > "$WORK/t1"
			if ((i >= 3)); then
				echo "$((${e/./} - ${s/./}))" >> "$WORK/$v.wall"
				echo "$(($(cpu_of "$WORK/t1") - $(cpu_of "$WORK/t0")))" >> "$WORK/$v.cpu"
			fi
		done
	done
	for v in "${variants[@]}"; do
		# Paired: round by round against no hooks, the median of the differences.
		paired=$(paste "$WORK/$v.wall" "$WORK/none.wall" | awk '{print $1 - $2}' | sort -n | awk '{a[NR]=$1} END {
			m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%+.1f", m/1000 }')
		printf '%s\t%s\t%s\t%s\n' "$v" "$(stats < "$WORK/$v.wall")" "$(stats < "$WORK/$v.cpu" | cut -f1)" "$paired" >> "$results"
	done
fi

# Each hook process as git times it (trace2's child_exit: from fork to
# exit, the hook's script included), in commits of their own after the
# timed ones: tracing slows the commit it traces.
say "timing each hook process of a commit (git trace2, $RUNS commits per variant)"
trace_variants=(noop-sh floor-go floor-sg sg-all)
[ -n "$SG_BASE" ] && trace_variants+=(base-all)
for ((i = 0; i < RUNS; i++)); do
	for v in $(printf '%s\n' "${trace_variants[@]}" | shuf); do
		d=$(dir_of "$v")
		prepare "$d"
		env "$(env_of "$v")" GIT_TRACE2_EVENT="$WORK/$v.trace2" git -C "$d" -c core.hooksPath="$WORK/hooks-$v" commit -q -m bench
	done
done
# hook_times VARIANT...: "variant<TAB>hook<TAB>median<TAB>min<TAB>max" (ms) per hook.
hook_times() {
	python3 - "$WORK" "$@" <<'EOF'
import json, statistics, sys
work = sys.argv[1]
for v in sys.argv[2:]:
    names, times = {}, {}
    for line in open(f"{work}/{v}.trace2"):
        e = json.loads(line)
        key = (e.get("sid"), e.get("child_id"))
        if e["event"] == "child_start" and e.get("child_class") == "hook":
            names[key] = e["hook_name"]
        elif e["event"] == "child_exit" and key in names:
            times.setdefault(names[key], []).append(e["t_rel"] * 1000)
    for hook, t in times.items():
        print(f"{v}\t{hook}\t{statistics.median(t):.1f}\t{min(t):.1f}\t{max(t):.1f}\t{len(t)}")
EOF
}
hook_times "${trace_variants[@]}" > "$WORK/hooks.tsv"

if command -v hyperfine >/dev/null; then
	# The hook process on its own (a staged change, the seeded database), and
	# the bare start of the binary, to show where the time goes.
	echo $RANDOM >> "$WORK/wt-sg-all/bench.txt" && git -C "$WORK/wt-sg-all" add bench.txt
	say "timing the pre-commit hook process alone"
	(cd "$WORK/wt-sg-all" && hyperfine -N --style none --warmup 5 --runs "$RUNS" --export-json "$WORK/alone.json" \
		"$SG hook pre-commit" "$SG version" "git write-tree" >/dev/null)
	python3 - "$WORK/alone.json" > "$WORK/alone.tsv" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    name = r["command"].split("/")[-1]
    print(f"{name}\t{r['median']*1000:.1f}\t{r['mean']*1000:.1f}\t{r['stddev']*1000:.1f}\t{r['min']*1000:.1f}\t{r['max']*1000:.1f}")
EOF
fi

# git push with sessiongate's pre-push against no hooks, to a bare remote on
# this disk: each round makes one commit per variant (untimed, no hooks) and
# times the push. sessiongate's variant works in a worktree whose session
# ended COMPLETE (pushing after session_end is the normal flow), so its
# pre-push checks the end gates, and pushes the records ref with the code
# when the configuration writes one.
say "timing git push (none, sg-pre-push) interleaved ($RUNS runs each)"
git init -q --bare "$WORK/remote.git"
mkdir -p "$WORK/hooks-push-none"
install_sg "$SG" "$WORK/hooks-sg-pre-push" --hooks pre-push
git worktree add -q -b bench-push "$WORK/wt-push"
(
	cd "$WORK/wt-push"
	id=$("$SG" session start --objective "benchmark push" | sed -n 's/^export SESSIONGATE_SESSION=//p')
	"$SG" session evidence --session "$id" --phase CONTEXT_RETRIEVAL --type tool_output --value "read" >/dev/null
	"$SG" session advance --session "$id" --to WORKING >/dev/null
	"$SG" session evidence --session "$id" --phase QA_VALIDATION --type tool_output --value "ran the tests: 12 passed" >/dev/null
	"$SG" session end --session "$id" --summary "benchmark push" >/dev/null
)
for ((i = 0; i < RUNS + 3; i++)); do
	for v in $(printf '%s\n' push-none sg-pre-push | shuf); do
		d=$WORK/wt-push
		[ "$v" = push-none ] && d=$REPO
		echo "$RANDOM" >> "$d/bench.txt"
		git -C "$d" -c core.hooksPath=/dev/null commit -q -am push
		s=$EPOCHREALTIME
		git -C "$d" -c core.hooksPath="$WORK/hooks-$v" push -q "$WORK/remote.git" "HEAD:refs/heads/$v" 2>/dev/null ||
			{ say "push under $v failed"; git -C "$d" -c core.hooksPath="$WORK/hooks-$v" push "$WORK/remote.git" "HEAD:refs/heads/$v"; exit 1; }
		e=$EPOCHREALTIME
		((i >= 3)) && echo "$((${e/./} - ${s/./}))" >> "$WORK/$v.push"
	done
done
for ((i = 0; i < RUNS; i++)); do
	echo "$RANDOM" >> "$WORK/wt-push/bench.txt"
	git -C "$WORK/wt-push" -c core.hooksPath=/dev/null commit -q -am push
	GIT_TRACE2_EVENT="$WORK/sg-pre-push.trace2" git -C "$WORK/wt-push" -c core.hooksPath="$WORK/hooks-sg-pre-push" push -q "$WORK/remote.git" "HEAD:refs/heads/sg-pre-push" 2>/dev/null
done
hook_times sg-pre-push >> "$WORK/hooks.tsv"
push_paired=$(paste "$WORK/sg-pre-push.push" "$WORK/push-none.push" | awk '{print $1 - $2}' | sort -n | awk '{a[NR]=$1} END {
	m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%+.1f", m/1000 }')

# The report, ready to paste under "## Git hooks" in docs/benchmarks.md.
{
	echo "machine: $(nproc) CPU $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "tools: $(git --version), $(go version | cut -d' ' -f3), hyperfine $(hyperfine --version 2>/dev/null | cut -d' ' -f2 || echo -), lefthook $([ -n "$LEFTHOOK" ] && "$LEFTHOOK" version || echo -), husky $([ -n "$HUSKY" ] && sed -n 's/.*"version": "\(.*\)".*/\1/p' "$HUSKY/package.json" || echo -), $([ -n "$PRECOMMIT" ] && "$PRECOMMIT" --version || echo 'pre-commit -')"
	echo "repository: $(git -C "$REPO" ls-files | wc -l) tracked files; database: $("$SG" session list --limit 10000 | tail -n +2 | wc -l) sessions (at most 10,000 counted); $RUNS runs after 3 warm-ups; timer: $TIMER"
	echo
	echo "| hooks | median wall ms | added (paired median) | mean | min | max | median CPU ms (user+sys) | CPU over no hooks |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	awk -F'\t' 'NR == FNR && $1 == "none" { bc = $6 } NR == FNR { next }
		{ printf "| %s | %s | %s | %s | %s | %s | %s | %+.1f |\n", $1, $2, $7, $3, $4, $5, $6, $6 - bc }' "$results" "$results"
	echo
	echo "| git push | median wall ms | added (paired median) |"
	echo "| --- | ---: | ---: |"
	echo "| no hooks | $(stats < "$WORK/push-none.push" | cut -f1) | +0.0 |"
	echo "| sessiongate pre-push | $(stats < "$WORK/sg-pre-push.push" | cut -f1) | $push_paired |"
	echo
	echo "| hook process (git trace2: fork to exit) | median ms | min | max | runs |"
	echo "| --- | ---: | ---: | ---: | ---: |"
	awk -F'\t' '{ printf "| %s: %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$WORK/hooks.tsv"
	if [ -s "$WORK/alone.tsv" ]; then
		echo
		echo "| process alone (hyperfine -N) | median ms | mean ms | stddev | min | max |"
		echo "| --- | ---: | ---: | ---: | ---: | ---: |"
		awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$WORK/alone.tsv"
	fi
}
# OUT=DIR keeps the raw results for bench/figures: the per-variant table
# (variant, median, mean, min, max wall ms, median CPU ms, paired added ms),
# the per-run wall times, the machine and the versions.
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	cp "$results" "$OUT/results.tsv"
	for v in "${variants[@]}"; do cp "$WORK/$v.wall" "$OUT/$v.wall"; done
	{
		echo "files=$(git -C "$REPO" ls-files | wc -l)"
		echo "git=$(git --version | cut -d' ' -f3)"
		echo "lefthook=$([ -n "$LEFTHOOK" ] && "$LEFTHOOK" version || echo -)"
		echo "husky=$([ -n "$HUSKY" ] && sed -n 's/.*"version": "\(.*\)".*/\1/p' "$HUSKY/package.json" || echo -)"
		echo "pre-commit=$([ -n "$PRECOMMIT" ] && "$PRECOMMIT" --version | cut -d' ' -f2 || echo -)"
	} > "$OUT/versions.env"
fi
