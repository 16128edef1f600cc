package shellline

import (
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// Call is one simple command of a command line: its words as the
// shell would pass them when they are literal ("" for an expansion), and
// its parsed node (for its leading assignments). Callers only read it:
// parses are shared.
type Call struct {
	Words []string
	Node  *syntax.CallExpr
}

func (c Call) key() string { return Key(strings.Join(c.Words, " ")) }

// Keys lists the program-and-subcommand key of every simple command
// of a line, in order (`cd web && npm test` gives "cd web" and "npm
// test"); a line that does not parse as shell gives the key of its first
// words.
func Keys(line string) []string {
	line = Unwrap(line)
	calls, _, ok := Calls(line)
	if !ok {
		if k := Key(line); k != "" {
			return []string{k}
		}
		return nil
	}
	var out []string
	for _, c := range calls {
		if k := c.key(); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// parsed is one line's parse, kept by Calls: a gate looks at every
// observed run of its phase, and the same lines come back (an agent runs
// its tests many times), each asked several questions.
type parsed struct {
	calls []Call
	file  *syntax.File
	ok    bool
}

var parseCache struct {
	sync.Mutex
	m map[string]parsed
}

// Calls parses a line as shell and lists its simple commands. The
// result is shared: callers only read it.
func Calls(line string) ([]Call, *syntax.File, bool) {
	parseCache.Lock()
	p, hit := parseCache.m[line]
	parseCache.Unlock()
	if !hit {
		p.calls, p.file, p.ok = parseLine(line)
		parseCache.Lock()
		if parseCache.m == nil || len(parseCache.m) >= 1024 {
			parseCache.m = map[string]parsed{} // bounded: start again
		}
		parseCache.m[line] = p
		parseCache.Unlock()
	}
	return p.calls, p.file, p.ok
}

func parseLine(line string) ([]Call, *syntax.File, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, nil, false
	}
	var calls []Call
	syntax.Walk(f, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.CallExpr); ok && len(x.Args) > 0 {
			c := Call{Node: x}
			for _, w := range x.Args {
				s, lit := Literal(w)
				if !lit {
					s = ""
				}
				c.Words = append(c.Words, s)
			}
			// Leading assignments are Assigns, not Args: words start at the program.
			calls = append(calls, c)
		}
		return true
	})
	return calls, f, true
}

// ExitIsOwn reports whether a command line's exit status is the status of
// its first simple command whose key is key, so that an observed exit 0
// means that command succeeded: it is the whole line, or it ends the line
// and is joined to what runs before it only by `&&` (and `cd dir &&`), or it
// is the last command of a pipeline under `set -o pipefail`. A pipe into
// `tail`, `|| true`, `; echo done`, `!`, a background `&`, or a loop leave
// the line's status to another command.
func ExitIsOwn(line, key string) bool {
	line = Unwrap(line)
	calls, f, ok := Calls(line)
	if !ok {
		return false
	}
	var target *syntax.CallExpr
	for _, c := range calls {
		if c.key() == key {
			target = c.Node
			break
		}
	}
	if target == nil {
		return false
	}
	return ownStatus(f.Stmts, target, false)
}

// ownStatus: does the list's status carry target's success? Only its last
// statement's status counts; pipefail may be switched on by an earlier
// `set -o pipefail`.
func ownStatus(stmts []*syntax.Stmt, target *syntax.CallExpr, pipefail bool) bool {
	for i, st := range stmts {
		if setsPipefail(st) {
			pipefail = true
		}
		if !contains(st, target) {
			continue
		}
		return i == len(stmts)-1 && stmtOwn(st, target, pipefail)
	}
	return false
}

func stmtOwn(st *syntax.Stmt, target *syntax.CallExpr, pipefail bool) bool {
	if st.Negated || st.Background || st.Coprocess {
		return false
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		return x == target
	case *syntax.BinaryCmd:
		inX := contains(x.X, target)
		switch x.Op {
		case syntax.AndStmt: // 0 means both sides succeeded
			if inX {
				return stmtOwn(x.X, target, pipefail)
			}
			return stmtOwn(x.Y, target, pipefail)
		case syntax.Pipe, syntax.PipeAll:
			if inX {
				// Not last in the pipeline: its status counts only under
				// pipefail, and then the rest must succeed too.
				return pipefail && stmtOwn(x.X, target, pipefail)
			}
			return stmtOwn(x.Y, target, pipefail)
		}
		return false // ||: a success may be the other side's
	case *syntax.Subshell:
		return ownStatus(x.Stmts, target, pipefail)
	case *syntax.Block:
		return ownStatus(x.Stmts, target, pipefail)
	}
	return false
}

func contains(n syntax.Node, target *syntax.CallExpr) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if m == target {
			found = true
		}
		return !found
	})
	return found
}

// setsPipefail: `set -o pipefail`, or a short-option group holding it
// (`set -euo pipefail`).
func setsPipefail(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 3 {
		return false
	}
	var w []string
	for _, a := range c.Args {
		s, _ := Literal(a)
		w = append(w, s)
	}
	if w[0] != "set" {
		return false
	}
	for i := 1; i+1 < len(w); i++ {
		if strings.HasPrefix(w[i], "-") && strings.HasSuffix(w[i], "o") && w[i+1] == "pipefail" {
			return true
		}
	}
	return false
}

// shells are the programs whose `-c SCRIPT` runs a script: a run of
// `sh -c '...'` is judged by the script.
// hookCall is `agent-hook AGENT` in a program's words or script text
// (AGENT as agenthook.Agents names them; shellline cannot import it).
var hookCall = lazyregexp.New(`(?:^|[^\w-])agent-hook\W+(?:claude|codex|copilot|cursor|gemini)\b`)

// quotesText are programs that only print, search or record text: the
// hook's words in their arguments run nothing (a commit message, a grep).
var quotesText = map[string]bool{"echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true,
	"git": true, "gh": true, "glab": true, "sed": true, "awk": true, "cat": true, "less": true, "man": true, "jq": true, "tee": true}

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true}

// Unwrap returns the script of a line that is one `sh -c SCRIPT`
// (bash, zsh, ...; -c alone or in a flag group such as -ec), else the line.
func Unwrap(line string) string {
	// `cd api && sh -c SCRIPT`: how sessiongate records a run made from a
	// subfolder (session/run.go, observed.go) keeps its shell's script
	// readable (round 56, helper 336's F13: `bash -c 'make test'` from api/
	// read as a filtered run, and `bash -c 'make -n test'` would have
	// escaped TestsNotRun).
	if pre, rest, ok := strings.Cut(line, " && "); ok && strings.HasPrefix(pre, "cd ") {
		if calls, f, ok := Calls(pre); ok && len(f.Stmts) == 1 && len(calls) == 1 && len(calls[0].Words) == 2 {
			if inner := unwrapShell(rest); inner != rest {
				return pre + " && " + inner
			}
		}
	}
	return unwrapShell(line)
}

func unwrapShell(line string) string {
	for range 3 { // sh -c "bash -c '...'" at most this deep
		calls, f, ok := Calls(line)
		if !ok || len(f.Stmts) != 1 || len(calls) != 1 || len(calls[0].Words) < 3 {
			return line
		}
		w := calls[0].Words
		prog := w[0][strings.LastIndexByte(w[0], '/')+1:]
		if !shells[prog] || !strings.HasPrefix(w[1], "-") || !strings.Contains(w[1], "c") || w[2] == "" {
			return line
		}
		line = w[2]
	}
	return line
}

// provesNothing are programs whose success says nothing about any work:
// they succeed (or print what they are told) whatever the repository holds.
// (`test -d dir` does check something, so test and [ are not here.)
var provesNothing = map[string]bool{"true": true, ":": true, "echo": true, "printf": true, "exit": true,
	"sleep": true, "yes": true, "pwd": true}

// Trivial reports whether every command of a line (or of its sh -c
// script) is one that proves nothing: `true`, `echo tests pass`, `exit 0`.
func Trivial(line string) bool {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return false
	}
	for _, c := range calls {
		prog := c.Words[0]
		if !provesNothing[prog[strings.LastIndexByte(prog, '/')+1:]] {
			return false
		}
	}
	return true
}

// queryFlags ask a program about itself: it prints its usage or version
// and touches nothing (`git status --help` exits 0 with the manual).
var queryFlags = map[string]bool{"--help": true, "--version": true}

// QueryOnly reports whether a command of the line asks its program
// for help or its version instead of running it. Such a run proves the
// tool is installed, not that it did what a requirement quoting it asks,
// unless the requirement's text asks for exactly that flag (mentions).
func QueryOnly(line string, mentions func(flag string) bool) bool {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return false
	}
	for _, c := range calls {
		for _, w := range c.Words[1:] {
			if queryFlags[w] && (mentions == nil || !mentions(w)) {
				return true
			}
		}
	}
	return false
}

// FirstWorkKey is the key of a line's first command that is not one that
// proves nothing ("" when there is none or the line is not shell). The
// shell's `set` (options: `set -e; go test ./...`, `set -a; X=1; go
// test`) is no work either: its status is not the run's.
func FirstWorkKey(line string) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		prog := c.Words[0]
		if name := prog[strings.LastIndexByte(prog, '/')+1:]; !provesNothing[name] && name != "set" {
			return c.key()
		}
	}
	return ""
}

// GitBypass describes how a command line skips git's hooks, "" when
// it does not: `git commit --no-verify` (or -n, also in a flag group such
// as -nm), `git push --no-verify`, or core.hooksPath pointed elsewhere
// with -c for a commit or push. The hooks are where the session's gates
// are checked; an agent hook denies these before they run (reconciliation
// would record the commit as a bypass afterwards).
func GitBypass(line string) string {
	return GitBypassWith(line, nil)
}

// GitBypassWith is GitBypass with git's aliases resolved: alias gives
// the expansions of the aliases git would run (nil: none known). An alias set earlier in the same
// line (`git config alias.c commit && git c -n`), or with -c, is resolved
// too: `git c -n` is `git commit -n` (lazy-agent pass 34).
func GitBypassWith(line string, aliases Aliases) string {
	return gitBypass(line, aliases, 0)
}

// maxBypassAliasDepth bounds aliases of aliases (git itself refuses a loop).
const maxBypassAliasDepth = 4

func gitBypass(line string, aliases Aliases, depth int) string {
	calls, f, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	// core.hooksPath set through git's environment (GIT_CONFIG_KEY_<n>,
	// GIT_CONFIG_PARAMETERS), exported earlier on the line or before the
	// command, is -c core.hooksPath by other means.
	envHooks := exportsHooksPath(f)
	envConfig := exportsConfigElsewhere(f)
	if u := Unwrap(line); u != line && envConfig == "" {
		if _, rf, ok := Calls(line); ok { // the wrapper's own prefix
			envConfig = exportsConfigElsewhere(rf)
		}
	}
	defined := map[string]string{} // aliases the line sets before their use
	for _, c := range calls {
		// unwrapCall also reads `env -S 'git commit -n'` and `sudo git ...`.
		words := expandedWords(c)
		w := unwrapCall(words)
		if len(w) == 0 || w[0] != "git" {
			continue
		}
		hooksPath := envHooks || hooksPathEnv(words) || assignsHooksPath(c.Node)
		elsewhere := envConfig
		if elsewhere == "" {
			elsewhere = configElsewhere(words, c.Node)
		}
		i, configs := gitGlobals(w)
		local := aliasConfigs(configs)
		for _, kv := range configs {
			if strings.HasPrefix(strings.ToLower(kv), "core.hookspath=") {
				hooksPath = true
			}
			if why := bypassAlias(kv); why != "" {
				return "`git -c " + kv + "` (" + why + ")"
			}
		}
		if i < len(w) && w[i] == "config" {
			// An alias that skips the hooks, for a later `git ci`.
			args := w[i+1:]
			for k := 0; k+1 < len(args); k++ {
				if name, ok := strings.CutPrefix(strings.ToLower(args[k]), "alias."); ok {
					if why := bypassAlias(args[k] + "=" + args[k+1]); why != "" {
						return "`git config " + args[k] + "` (" + why + ")"
					}
					defined[name] = args[k+1]
				}
			}
		}
		if i >= len(w) {
			continue
		}
		if w[i] != "commit" && w[i] != "push" {
			if how := aliasBypass(w, i, configs, hooksPath, elsewhere, local, defined, aliases, depth); how != "" {
				return how
			}
			continue
		}
		sub := w[i]
		if hooksPath {
			return "`git -c core.hooksPath=... " + sub + "` (runs no hooks)"
		}
		if elsewhere != "" {
			return "`" + elsewhere + " git " + sub + "` (git reads another user or system config, whose core.hooksPath can point anywhere)"
		}
		args := w[i+1:]
		valued := optionValuesBuilt(c.Node) // --message="$m": an option whose value is built
		positional := false                 // push's remote seen: a refspec may be built
		for k, a := range args {
			if a == "--" {
				break
			}
			// git takes an unambiguous prefix of a long option: --no-verif.
			if longOption(a, "--no-verify", len("--no-veri")) || sub == "commit" && shortFlag(a, 'n') {
				return "`git " + sub + " " + a + "` (skips the hooks)"
			}
			// A word the line builds at run time ("$@", ${a[@]},
			// $(printf -- -n)) where an option can stand: it can be -n.
			// A message or file given through one stays honest.
			if a != "" && !strings.HasPrefix(a, "-") && (k == 0 || !takesValue(sub, args[k-1])) {
				positional = true
			}
			if a == "" && valued > 0 {
				valued--
				continue
			}
			if a == "" && (k == 0 || !takesValue(sub, args[k-1])) && !(sub == "push" && positional) {
				return "`git " + sub + "` with an argument built at run time where an option can stand (it can be -n or --no-verify)"
			}
		}
	}
	return ""
}

// gitGlobals reads git's own options, those before its subcommand, in
// the words of a git call (w[0] is git): it returns the subcommand's index
// (len(w) when there is none) and the values of -c and --config-env
// (as KEY=$VAR), in order. -C,
// --git-dir, --work-tree and --namespace take the next word as their
// value; any other word starting with "-" is an option alone.
func gitGlobals(w []string) (sub int, configs []string) {
	i := 1
	for ; i < len(w); i++ {
		a := w[i]
		if a == "-c" && i+1 < len(w) {
			configs = append(configs, w[i+1])
			i++
			continue
		}
		if a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" {
			i++
			continue
		}
		// --config-env=KEY=VAR takes KEY's value from VAR: the key is what
		// matters here, so it is reported as KEY=$VAR.
		if v, ok := strings.CutPrefix(a, "--config-env="); ok {
			configs = append(configs, configEnv(v))
			continue
		}
		if a == "--config-env" && i+1 < len(w) {
			configs = append(configs, configEnv(w[i+1]))
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
	}
	return i, configs
}

func configEnv(kv string) string {
	k, v, _ := strings.Cut(kv, "=")
	return k + "=$" + v
}

// bypassAlias says why a git alias setting (alias.NAME=VALUE) skips the
// hooks, "" when it does not: its command is a commit or push that would.
func bypassAlias(kv string) string {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || !strings.HasPrefix(strings.ToLower(k), "alias.") {
		return ""
	}
	cmd := "git " + v
	if rest, ok := strings.CutPrefix(v, "!"); ok {
		cmd = rest // a shell alias runs its text
	}
	if GitBypass(cmd) != "" || Unhooks(cmd) != "" {
		return "an alias that skips the hooks"
	}
	return ""
}

// hooksPathEnv reports whether NAME=VALUE words (env's, or assignments
// before a command) point core.hooksPath elsewhere through git's
// environment.
func hooksPathEnv(words []string) bool {
	for _, a := range words {
		k, v, ok := strings.Cut(a, "=")
		if ok && hooksPathVar(k, v) {
			return true
		}
	}
	return false
}

func hooksPathVar(k, v string) bool {
	v = strings.ToLower(v)
	switch {
	case strings.HasPrefix(k, "GIT_CONFIG_KEY_"):
		v = strings.TrimSpace(v)
		// An included file can set core.hooksPath too.
		return v == "core.hookspath" || v == "include.path" || strings.HasPrefix(v, "includeif.") && strings.HasSuffix(v, ".path")
	case k == "GIT_CONFIG_PARAMETERS":
		return strings.Contains(v, "core.hookspath") || strings.Contains(v, "include.path") || strings.Contains(v, "includeif.")
	}
	return false
}

// assignsHooksPath reports whether a command's leading assignments set
// core.hooksPath through git's environment.
func assignsHooksPath(c *syntax.CallExpr) bool {
	if c == nil {
		return false
	}
	for _, a := range c.Assigns {
		if a.Name == nil {
			continue
		}
		v, _ := Literal(a.Value)
		if hooksPathVar(a.Name.Value, v) {
			return true
		}
	}
	return false
}

// exportsHooksPath reports whether a line exports such a variable
// (`export GIT_CONFIG_KEY_0=core.hooksPath; git commit`).
func exportsHooksPath(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.DeclClause); ok && exports(d) {
			for _, a := range d.Args {
				if a.Name != nil {
					v, _ := Literal(a.Value)
					found = found || hooksPathVar(a.Name.Value, v)
				}
			}
		}
		return !found
	})
	return found
}

// RunsAgentHook reports whether a command line runs `sessiongate
// agent-hook` itself (in any part of the line, or in a `sh -c` script in
// it). The agent hooks are the agent client's to run: from the agent's own
// shell, `echo '{"hook_event_name":"PostToolUse",...}' | sessiongate
// agent-hook claude PostToolUse` would record a `go test ./...` that never
// ran as an observed pass. A line that does not parse as shell is judged
// by its words.
func RunsAgentHook(line string) bool {
	return runsAgentHook(line, 0)
}

func runsAgentHook(line string, depth int) bool {
	calls, _, ok := Calls(line)
	if !ok {
		f := strings.Fields(line)
		for i, w := range f {
			if strings.HasSuffix(strings.Trim(w, "\"'`$(){};|&"), "sessiongate") && slices.Index(f[i+1:], "agent-hook") >= 0 {
				return true
			}
		}
		return false
	}
	for _, c := range calls {
		w := StripWrappers(c.Words)
		if len(w) < 2 {
			continue
		}
		prog := w[0][strings.LastIndexByte(w[0], '/')+1:]
		switch {
		case prog == "sessiongate":
			if slices.Index(w[1:], "agent-hook") >= 0 {
				return true
			}
		case !quotesText[prog] && hookCall.MatchString(strings.Join(w[1:], " ")):
			// Issue 25 (transcript witness): the hook under another name
			// plants a witness as well: `go run .../cmd/sessiongate
			// agent-hook`, a copy on PATH, `node -e` spawning it.
			return true
		case shells[prog] && depth < 3:
			for i := 1; i+1 < len(w); i++ {
				if strings.HasPrefix(w[i], "-") && !strings.HasPrefix(w[i], "--") && strings.Contains(w[i], "c") {
					if runsAgentHook(w[i+1], depth+1) {
						return true
					}
					break
				}
			}
		}
	}
	return false
}

// shortFlag reports whether a group of git commit's short options (-an,
// -nm msg) holds flag; an option that takes a value (-m, -F, -C, -c, -t)
// ends the group, the rest being its value (-mnew).
func shortFlag(a string, flag byte) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for i := 1; i < len(a); i++ {
		switch a[i] {
		case flag:
			return true
		case 'm', 'F', 'C', 'c', 't':
			return false
		}
	}
	return false
}

// Unhooks describes how a command line takes sessiongate's git hooks
// away, "" when it does not: `git config core.hooksPath ...` (set or
// unset: the installed hooks live where it points) or `sessiongate
// uninstall`.
func Unhooks(line string) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := StripWrappers(expandedWords(c))
		if len(w) < 2 {
			continue
		}
		prog := w[0][strings.LastIndexByte(w[0], '/')+1:]
		switch prog {
		case "sessiongate":
			if slices.Index(w[1:], "uninstall") >= 0 {
				return "`sessiongate uninstall`"
			}
		case "git":
			if i := slices.Index(w, "config"); i > 0 && !ConfigReadOnly(w[i+1:]) {
				for _, a := range w[i+1:] {
					if strings.EqualFold(a, "core.hooksPath") {
						return "`git config core.hooksPath`"
					}
					// A config file included from git's config can set
					// core.hooksPath where no check reads it.
					if l := strings.ToLower(a); l == "include.path" || strings.HasPrefix(l, "includeif.") && strings.HasSuffix(l, ".path") {
						return "`git config " + a + "` (a config file included by git's config can set core.hooksPath)"
					}
				}
			}
		}
	}
	return ""
}

// ConfigReadOnly reports whether `git config ARGS` only reads: it names a
// read action (--get, --get-all, --get-regexp, --get-urlmatch, --list, -l,
// or the get/list subcommands) and no write (set, --add, --unset, --edit,
// --replace-all, a section renamed or removed). git refuses two actions
// at once, so a read action with a write beside it is conservatively a
// write here. Honest tools read core.hooksPath to find the hooks.
func ConfigReadOnly(args []string) bool {
	read := false
	for i, a := range args {
		switch a {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l":
			read = true
		case "get", "list":
			// The subcommand form (git 2.46) is the first operand.
			if firstOperand(args) == i {
				read = true
			}
		case "set", "unset", "rename-section", "remove-section", "edit":
			if firstOperand(args) == i {
				return false
			}
		case "--add", "--replace-all", "--unset", "--unset-all", "--rename-section", "--remove-section", "-e", "--edit":
			return false
		}
	}
	return read
}

// firstOperand is the index of the first argument that is no option, -1
// when none is (an option's value, -f FILE, is skipped).
func firstOperand(args []string) int {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-f" || a == "--file" || a == "--blob" || a == "--type" || a == "--default":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return -1
}

// HidesChanges describes how a command line makes git hide a difference
// between the work tree and what it commits, "" when it does not: `git
// update-index --skip-worktree` or `--assume-unchanged` (status then
// ignores the file's changes) and a clean filter driver set with `git
// config filter.NAME.clean ...` or `git -c filter.NAME.clean=...` (what is
// committed is then the filter's output, not the tested file). Reading a
// filter setting or removing one is not hiding.
func HidesChanges(line string) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := unwrapCall(expandedWords(c))
		if len(w) < 2 || w[0] != "git" {
			continue
		}
		i, configs := gitGlobals(w)
		for _, kv := range configs {
			if why := hidingKey(kv); why != "" {
				return "`git -c " + kv + "` (" + why + ")"
			}
		}
		if i >= len(w) {
			continue
		}
		switch args := w[i+1:]; w[i] {
		case "update-index":
			for _, a := range args {
				// git takes any unambiguous prefix of a long option
				// (--skip-work, --assume-unch).
				if longOption(a, "--skip-worktree", 4) || longOption(a, "--assume-unchanged", 4) {
					return "`git update-index " + a + "`"
				}
			}
		case "sparse-checkout":
			if len(args) > 0 && args[0] != "list" {
				return "`git sparse-checkout " + args[0] + "` (files outside the cone leave the work tree)"
			}
		case "config":
			set := true
			for _, a := range args {
				switch a {
				case "--get", "--get-all", "--get-regexp", "--list", "-l", "--unset", "--unset-all", "--remove-section", "--show-origin":
					set = false
				}
			}
			for _, a := range args {
				if why := hidingKey(a); set && why != "" {
					return "`git config " + a + "` (" + why + ")"
				}
			}
		}
	}
	return ""
}

// hidingKey says why setting a git config key (or KEY=VALUE) can hide a
// change from status and diff, "" when it cannot: a clean filter, a file
// system monitor (git trusts its "nothing changed"), an attributes file
// (filters again), or an included file (any of these).
func hidingKey(kv string) string {
	k, _, _ := strings.Cut(strings.ToLower(kv), "=")
	switch {
	case strings.HasPrefix(k, "filter."):
		return "a filter driver"
	case k == "core.fsmonitor":
		return "a file system monitor git trusts over the files"
	case k == "core.attributesfile":
		return "an attributes file"
	case k == "include.path" || strings.HasPrefix(k, "includeif."):
		return "an included config file"
	}
	return ""
}

// longOption reports whether a is full or an unambiguous prefix of it at
// least min characters long, as git's option parser takes it.
func longOption(a, full string, min int) bool {
	a, _, _ = strings.Cut(a, "=")
	return len(a) >= min && strings.HasPrefix(full, a)
}

// takesValue reports whether option opt of git commit or push takes the
// next word as its value (`-m "$msg"`, `-am "$(cat m)"`, `-o x`).
func takesValue(sub, opt string) bool {
	if strings.HasPrefix(opt, "--") {
		if strings.Contains(opt, "=") {
			return false
		}
		for _, o := range []string{"--message", "--file", "--author", "--date", "--template", "--cleanup", "--fixup", "--squash", "--trailer", "--reuse-message", "--reedit-message", "--push-option", "--repo", "--receive-pack", "--exec", "--pathspec-from-file"} {
			if strings.HasPrefix(o, opt) && len(opt) > 3 {
				return true
			}
		}
		return false
	}
	if len(opt) < 2 || opt[0] != '-' {
		return false
	}
	last := opt[len(opt)-1]
	if sub == "push" {
		return last == 'o'
	}
	return strings.IndexByte("mFCct", last) >= 0
}

// optionValuesBuilt counts a call's words that are an option with a value
// built at run time (--message="$m"): a literal "-...=" then an expansion.
func optionValuesBuilt(c *syntax.CallExpr) int {
	if c == nil {
		return 0
	}
	n := 0
	for _, w := range c.Args {
		if _, ok := Literal(w); ok || len(w.Parts) < 2 {
			continue
		}
		if l, ok := w.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "-") && strings.Contains(l.Value, "=") {
			n++
		}
	}
	return n
}
