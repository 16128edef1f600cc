#!/usr/bin/env bash
# bench/hooks.sh: wall time of `git commit` in a repository with 20,000
# tracked files and a database of 10,000 sessions, with
#   - no hooks,
#   - sessiongate's pre-commit hook alone, and all its hooks
#     (pre-commit, commit-msg and post-commit run on a commit),
#   - a no-op pre-commit hook run by lefthook, and by the pre-commit framework.
# Reports medians. Run by hand, not in CI:
#
#   bash bench/hooks.sh            # RUNS=40 FILES=20000 SESSIONS=10000 by default
#
# Needs git and go; uses hyperfine when installed (apt-get install hyperfine),
# else a loop timed with date +%s%N. lefthook comes from PATH, else
# `go install github.com/evilmartians/lefthook@latest`, else npm's lefthook
# package; pre-commit from PATH (Debian package pre-commit). A tool that is
# missing is skipped with a note.
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
printf '[user]\n\tname = Bench\n\temail = bench@example.com\n' > "$WORK/gitconfig"
export GIT_CONFIG_GLOBAL=$WORK/gitconfig GIT_CONFIG_NOSYSTEM=1
export PRE_COMMIT_HOME=$WORK/pre-commit-home

say() { printf '== %s\n' "$*" >&2; }
say "work folder $WORK"

say "building sessiongate"
(cd "$ROOT" && go build -o "$BIN/sessiongate" ./cmd/sessiongate)
SG=$BIN/sessiongate

LEFTHOOK=$(command -v lefthook || true)
if [ -z "$LEFTHOOK" ]; then
	say "installing lefthook"
	if GOBIN=$BIN go install github.com/evilmartians/lefthook@latest >/dev/null 2>&1; then
		LEFTHOOK=$BIN/lefthook
	elif command -v npm >/dev/null && npm install --silent --no-audit --no-fund --prefix "$WORK/npm" lefthook >/dev/null 2>&1; then
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

say "seeding $SESSIONS sessions"
DB=$(git rev-parse --path-format=absolute --git-common-dir)/sessiongate/sessiongate.db
(cd "$ROOT" && go run bench/seed.go -db "$DB" -repo "$REPO" -n "$SESSIONS" >&2)
id=$("$SG" session start --objective "benchmark" | sed -n 's/^export SESSIONGATE_SESSION=//p')
"$SG" session evidence --session "$id" --phase CONTEXT_RETRIEVAL --type tool_output --value "read" >/dev/null
"$SG" session advance --session "$id" --to WORKING >/dev/null

# One hooks folder per variant; each commit picks one with -c core.hooksPath.
mkdir -p "$WORK/hooks-none"
install_sg() { # folder, install flags...
	local dir=$1
	shift
	mkdir -p "$dir"
	git config core.hooksPath "$dir"
	"$SG" install "$@" >/dev/null
	git config --unset core.hooksPath
}
install_sg "$WORK/hooks-sg-pre-commit" --hooks pre-commit
install_sg "$WORK/hooks-sg-all"
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
if [ -n "$PRECOMMIT" ]; then
	"$PRECOMMIT" install >/dev/null
	"$PRECOMMIT" install-hooks >/dev/null
	move_hooks "$WORK/hooks-pre-commit"
fi

variants=(none sg-pre-commit sg-all)
[ -n "$LEFTHOOK" ] && variants+=(lefthook)
[ -n "$PRECOMMIT" ] && variants+=(pre-commit)

prepare="echo \$RANDOM\$RANDOM >> $REPO/bench.txt && git -C $REPO add bench.txt"
results=$WORK/results.tsv
: > "$results"
for v in "${variants[@]}"; do
	# A check that the variant works before timing it.
	sh -c "$prepare" && git -C "$REPO" -c core.hooksPath="$WORK/hooks-$v" commit -q -m check ||
		{ say "variant $v failed to commit"; exit 1; }
done
# TIMER=hyperfine (default when installed) times each variant in turn;
# TIMER=loop interleaves the variants run by run, so a load that comes and
# goes on a shared machine weighs on all of them alike.
TIMER=${TIMER:-$(command -v hyperfine >/dev/null && echo hyperfine || echo loop)}
median() { sort -n | awk '{a[NR]=$1; s+=$1} END {
	m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2
	printf "%.1f\t%.1f\t-\t%.1f\t%.1f\n", m/1000, s/NR/1000, a[1]/1000, a[NR]/1000 }'; }
if [ "$TIMER" = hyperfine ]; then
	for v in "${variants[@]}"; do
		say "timing $v with hyperfine ($RUNS runs)"
		hyperfine --style none --warmup 3 --runs "$RUNS" --prepare "$prepare" --export-json "$WORK/$v.json" \
			"git -C $REPO -c core.hooksPath=$WORK/hooks-$v commit -q -m bench" >/dev/null
		python3 - "$WORK/$v.json" "$v" >> "$results" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"{sys.argv[2]}\t{r['median']*1000:.1f}\t{r['mean']*1000:.1f}\t{r['stddev']*1000:.1f}\t{r['min']*1000:.1f}\t{r['max']*1000:.1f}")
EOF
	done
else
	say "timing ${variants[*]} interleaved ($RUNS runs each, after 3 warm-ups)"
	for ((i = 0; i < RUNS + 3; i++)); do
		for v in "${variants[@]}"; do
			sh -c "$prepare"
			s=$EPOCHREALTIME
			git -C "$REPO" -c core.hooksPath="$WORK/hooks-$v" commit -q -m bench
			e=$EPOCHREALTIME
			((i >= 3)) && echo "$((${e/./} - ${s/./}))" >> "$WORK/$v.us"
		done
	done
	for v in "${variants[@]}"; do
		printf '%s\t%s\n' "$v" "$(median < "$WORK/$v.us")" >> "$results"
	done
fi

if command -v hyperfine >/dev/null; then
	# The hook process on its own (a staged change, the seeded database), and
	# the bare start of the binary, to show where the time goes.
	echo $RANDOM >> "$REPO/bench.txt" && git -C "$REPO" add bench.txt
	say "timing the pre-commit hook process alone"
	(cd "$REPO" && hyperfine -N --style none --warmup 5 --runs "$RUNS" --export-json "$WORK/alone.json" \
		"$SG hook pre-commit" "$SG version" "git write-tree" >/dev/null)
	python3 - "$WORK/alone.json" > "$WORK/alone.tsv" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    name = r["command"].split("/")[-1]
    print(f"{name}\t{r['median']*1000:.1f}\t{r['mean']*1000:.1f}\t{r['stddev']*1000:.1f}\t{r['min']*1000:.1f}\t{r['max']*1000:.1f}")
EOF
fi

# The report, ready to paste under "## Git hooks" in docs/benchmarks.md.
{
	echo "machine: $(nproc) CPU $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "tools: $(git --version), $(go version | cut -d' ' -f3), hyperfine $(hyperfine --version 2>/dev/null | cut -d' ' -f2 || echo -), lefthook $([ -n "$LEFTHOOK" ] && "$LEFTHOOK" version || echo -), $([ -n "$PRECOMMIT" ] && "$PRECOMMIT" --version || echo 'pre-commit -')"
	echo "repository: $(git -C "$REPO" ls-files | wc -l) tracked files; database: $("$SG" session list --limit 100000 | tail -n +2 | wc -l) sessions; $RUNS runs after 3 warm-ups; timer: $TIMER"
	echo
	echo "| hooks | median ms | mean ms | stddev | min | max | median over no hooks |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	base=$(awk -F'\t' '$1=="none"{print $2}' "$results")
	awk -F'\t' -v b="$base" '{ printf "| %s | %s | %s | %s | %s | %s | %+.1f ms |\n", $1, $2, $3, $4, $5, $6, $2-b }' "$results"
	if [ -s "$WORK/alone.tsv" ]; then
		echo
		echo "| process alone (hyperfine -N) | median ms | mean ms | stddev | min | max |"
		echo "| --- | ---: | ---: | ---: | ---: | ---: |"
		awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$WORK/alone.tsv"
	fi
}
