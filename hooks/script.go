// Package hooks installs sessiongate's git hooks and MCP client configs,
// checks an installation (doctor), and runs each hook: the small shell
// scripts it writes exec `sessiongate hook NAME`, which lands in Run.
package hooks

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// Marker is the line that makes a hook script ours. Install and uninstall
// touch only files that carry it.
const Marker = "# sessiongate-managed-hook v1"

// OrigSuffix names a foreign hook moved aside and chained by ours.
const OrigSuffix = ".sessiongate-orig"

// Hooks are the hooks install writes by default, in the order git runs them.
var Hooks = []string{"pre-commit", "commit-msg", "post-commit", "post-merge", "post-rewrite", "pre-push"}

// RecordOnlyHooks only record what landed (a merge, a rewrite): an install
// older than them lacks them, which is an outdated install (doctor warns),
// not a weakening: reconciliation at the next sessiongate call records the
// same commits.
var RecordOnlyHooks = []string{"post-merge", "post-rewrite"}

// stdinHooks read data from git on stdin; a chained original must see it too.
var stdinHooks = map[string]bool{"pre-push": true, "post-rewrite": true}

// Script returns the hook script for name that execs binary (an absolute
// path). The script is the same whether or not a foreign hook is chained,
// so installing twice writes the same bytes. A missing binary exits 2 and
// never falls back to `sessiongate` from PATH: a registry package the agent
// installs globally can put a `sessiongate` there without the line naming
// it (TestMovedBinaryNeverRunsPathShim).
func Script(name, binary string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `#!/bin/sh
%s
# Written by 'sessiongate install'; 'sessiongate uninstall' removes it and
# restores the hook it replaced (%s%s), which runs first when present.
sg=%s
if [ ! -x "$sg" ]; then
	echo "sessiongate: $sg, the binary these hooks were installed with, is missing: reinstall with the one you use now, by its absolute path (/full/path/to/sessiongate install)" >&2
	exit 2
fi
orig="${0%%/*}/%s%s"
`, Marker, name, OrigSuffix, shellQuote(binary), name, OrigSuffix)
	if stdinHooks[name] {
		fmt.Fprintf(&b, `if [ -x "$orig" ]; then
	# git writes the refs to stdin once: keep them for both hooks.
	input=$(cat)
	emit() { if [ -n "$input" ]; then printf '%%s\n' "$input"; fi; }
	emit | "$orig" "$@" || exit $?
	emit | "$sg" hook %s "$@"
	exit $?
fi
exec "$sg" hook %s "$@"
`, name, name)
	} else {
		fmt.Fprintf(&b, `if [ -x "$orig" ]; then
	"$orig" "$@" || exit $?
fi
`)
		b.WriteString(handoffScript[name])
		fmt.Fprintf(&b, "exec \"$sg\" hook %s \"$@\"\n", name)
	}
	return b.Bytes()
}

// handoffCheck sets h to the handoff beside the index, when the index is
// in a git dir (.git, or a linked worktree's under .git/worktrees), and hv
// to its state ("v2": written by pre-commit; "v2u": used by commit-msg)
// when it belongs to this same git process (its id is our $PPID), and cfg
// to "plain" when no git configuration changes where trailers go; see
// handoff.go.
const handoffCheck = `hv=
case ${GIT_INDEX_FILE-} in */*) d=${GIT_INDEX_FILE%/*} ;; *) d= ;; esac
case $d in .git | */.git | .git/worktrees/* | */.git/worktrees/*) h=$d/` + handoffName + ` ;; *) h= ;; esac
if [ -n "$h" ] && [ -f "$h" ] && { read -r hv pid cfg; } <"$h" && [ "$pid" = "$PPID" ]; then :; else hv=; fi
`

// appendTrailers appends the trailers ("$@") to the message file itself,
// without starting git, when git interpret-trailers would do just that: the
// configuration is plain (no comment character, no trailer.* keys), every
// line of the message ends with a newline, none starts with '#', the first
// and the last hold text, and either no blank line follows the title (it is
// all title) or no line of the last paragraph could be, or continue, a
// trailer (no ':', no leading space, no "(cherry picked from commit").
// No line may be an old "Conflicts:" line either: git leaves a trailing
// block starting with one out of the message (ignored_log_message_bytes).
// Spaces are git's (gitSpace). A "---" line is text: a commit message has
// no patch part, so git interpret-trailers runs with --no-divider (without
// it git puts the trailers above the line, where git log's %(trailers),
// and so sessiongate verify, never finds them). Then git adds a blank line and the trailers after the message, and so
// does this (TestAppendTrailersMatchesGit compares the two). Anything else
// falls through to git. Only shell builtins: no process is started.
const appendTrailers = `	if [ "$cfg" = plain ]; then
		ok=1 first= last= title=1 para=
		while IFS= read -r l; do
			case $l in '#'* | Conflicts:) ok= ;; esac
			[ -n "$first" ] || first=x$l
			last=$l
			case $l in
			*[!` + gitSpace + `]*)
				[ -n "$para" ] || para=ok
				case $l in [` + gitSpace + `]* | *:* | '(cherry picked from commit '*) para=no ;; esac
				;;
			*) title= para= ;;
			esac
		done <"$msg"
		case $first in x*[!` + gitSpace + `]*) ;; *) ok= ;; esac
		case $last in *[!` + gitSpace + `]*) ;; *) ok= ;; esac
		[ -z "$l" ] || ok=
		if [ -n "$ok" ] && { [ -n "$title" ] || [ "$para" = ok ]; }; then
			{
				printf '\n'
				printf '%s\n' "$@"
			} >>"$msg"
			exit 0
		fi
	fi
`

// gitSpace is git's isspace within a line, quoted for a bracket expression
// of a case pattern: space, tab and carriage return. The shell's
// [[:space:]] also holds form feed and vertical tab, and in bash under a
// UTF-8 locale (/bin/sh on macOS and Fedora) Unicode spaces too, all of
// which git reads as text.
const gitSpace = "' \t\r'"

// handoffScript is the part of a script that uses pre-commit's handoff
// instead of starting the binary: commit-msg adds the trailers (read as
// data, never evaluated) and marks the handoff used; post-commit takes only
// a used one, leaves the commit to reconciliation and empties the handoff
// (redirections: rm or mv would be one more process each). A handoff that
// pre-commit wrote for a commit that went no further is never used.
var handoffScript = map[string]string{
	"commit-msg": handoffCheck + `if [ "$hv" = ` + handoffVersion + ` ] && [ $# -ge 1 ]; then
	msg=$1
	set --
	{
		read -r _
		while IFS= read -r t; do set -- "$@" "$t"; done
	} <"$h"
	printf '%s %s\n' ` + handoffVersion + `u "$PPID" >"$h"
	[ $# -gt 0 ] || exit 0
` + appendTrailers + `	n=$#
	for t; do set -- "$@" --trailer "$t"; done
	shift "$n"
	exec git interpret-trailers --in-place --no-divider --if-exists replace "$@" "$msg"
fi
`,
	"post-commit": handoffCheck + `if [ "$hv" = ` + handoffVersion + `u ]; then
	: >"$h"
	exit 0
fi
`,
}

// IsOurs reports whether a hook file's content is a sessiongate script.
func IsOurs(content []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(content))
	for i := 0; i < 5 && sc.Scan(); i++ {
		if strings.TrimSpace(sc.Text()) == Marker {
			return true
		}
	}
	return false
}

// ScriptBinary returns the binary path a script of ours execs.
func ScriptBinary(content []byte) (string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(content))
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "sg="); ok {
			return shellUnquote(v), true
		}
	}
	return "", false
}

// shellQuote quotes s for POSIX sh with single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellUnquote reverses shellQuote.
func shellUnquote(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], `'\''`, "'")
	}
	return s
}
