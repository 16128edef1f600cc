package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/cijob"
	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/protect"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// Check statuses.
const (
	OK   = "ok"
	Warn = "warn" // worth knowing, not broken
	Fail = "FAIL"
)

// Finding is one doctor check.
type Finding struct {
	Check  string `json:"check"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// DoctorOptions says where to look.
type DoctorOptions struct {
	Dir          string
	Binary       string // the running binary, compared with the hooks' path
	DBPath       string // resolved like the hooks do when ""
	ProtocolPath string // --protocol; "" means the config's, then the defaults
	Getenv       func(string) string
}

// MinGit is the oldest git sessiongate supports (rev-parse --path-format).
var MinGit = [3]int{2, 31, 0}

// Doctor checks an installation and says how to fix each problem.
func Doctor(ctx context.Context, o DoctorOptions) []Finding {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var out []Finding
	add := func(check, status, detail, fix string) {
		out = append(out, Finding{Check: check, Status: status, Detail: detail, Fix: fix})
	}

	text, v, err := gitVersion(ctx)
	switch {
	case err != nil:
		add("git", Fail, err.Error(), "install git "+verString(MinGit)+" or newer")
		return out
	case less(v, MinGit):
		add("git", Fail, text+" is older than "+verString(MinGit), "upgrade git")
	default:
		add("git", OK, text, "")
	}

	loc, err := locateHooks(ctx, o.Dir)
	if err != nil {
		add("repository", Fail, err.Error(), "run sessiongate doctor inside a git work tree")
		return out
	}
	if loc.HooksPath != "" {
		if err := checkHooksPath(loc); err != nil {
			add("core.hooksPath", Warn, fmt.Sprintf("%q: %s", loc.HooksPath, firstLine(err.Error())), "see `sessiongate install --help`: call sessiongate from that tool's hooks, or unset core.hooksPath")
		} else {
			add("core.hooksPath", OK, fmt.Sprintf("%q (hooks folder %s)", loc.HooksPath, loc.Dir), "")
		}
	} else {
		add("core.hooksPath", OK, "unset (hooks folder "+loc.Dir+")", "")
	}
	out = append(out, doctorHooks(loc, o.Binary)...)
	bi, _ := debug.ReadBuildInfo()
	out = append(out, doctorBuild(bi))

	cfg, err := config.Load(loc.Root)
	if err != nil {
		add("config", Fail, err.Error(), "fix the file; every key is optional")
		cfg = config.Default()
	} else if cfg.Path == "" {
		add("config", Warn, "no sessiongate.yaml: defaults apply (require_session: false)", "run `sessiongate init` to write one")
	} else {
		add("config", OK, cfg.Path, "")
	}

	out = append(out, doctorRecords(ctx, loc, cfg)...)
	out = append(out, doctorDB(ctx, o, getenv, loc, cfg)...)
	out = append(out, doctorProtocol(o, getenv, loc, cfg)...)
	out = append(out, doctorCI(loc.Root, cfg))

	for _, c := range MCPClients {
		cmd, exists, err := mcpEntry(loc.Root, c)
		p := filepath.Join(loc.Root, c.Path)
		switch {
		case err != nil:
			add("mcp "+c.Name, Fail, err.Error(), "fix the JSON, then `sessiongate install --mcp "+c.Name+"`")
		case !exists:
			add("mcp "+c.Name, Warn, p+" absent", "`sessiongate install --mcp "+c.Name+"` if you use "+c.Name)
		case cmd == "":
			add("mcp "+c.Name, Warn, p+" has no "+ServerName+" server", "`sessiongate install --mcp "+c.Name+"`")
		case filepath.IsAbs(cmd):
			add("mcp "+c.Name, Warn, p+" runs "+cmd+", a path of this machine in a committed file", "`sessiongate install --mcp "+c.Name+"` to run `sessiongate` from PATH")
		case cmd == MCPCommand && OnPath() == "":
			add("mcp "+c.Name, Fail, p+" runs `sessiongate mcp` from PATH, and sessiongate is not on PATH", "go install github.com/sessiongate/sessiongate/cmd/sessiongate@latest and put $(go env GOPATH)/bin on PATH")
		default:
			add("mcp "+c.Name, OK, p+" runs "+cmd+" mcp", "")
		}
	}
	out = append(out, doctorAgents(loc.Root, o.Binary, getenv)...)
	return out
}

// doctorCI checks that a CI file runs sessiongate and that what its job
// runs from the work tree (a local action, a script) is protected: an
// agent's edit of either turns CI green without touching the CI file.
func doctorCI(root string, cfg *config.Config) Finding {
	named, local := cijob.InTree(root)
	if len(named) == 0 {
		return Finding{"ci", Warn, "no CI file (" + strings.Join(cijob.Patterns, ", ") + ") runs sessiongate: commits made with the hooks off reach the default branch unchecked",
			"add `sessiongate verify` to CI: action.yml (GitHub) or ci/gitlab/sessiongate-verify.gitlab-ci.yml (docs/policy.md)"}
	}
	patterns := protect.Paths("", cfg.Protocol, cfg.ProtectedPaths)
	var open []string
	for _, f := range local {
		if !slices.Contains(cfg.ProtectedPaths, f) && !protect.Match(patterns, f) {
			open = append(open, f)
		}
	}
	if len(open) > 0 {
		return Finding{"ci", Warn, strings.Join(named, ", ") + " runs sessiongate, and its job runs " + strings.Join(open, ", ") + " from the work tree, which no protected_paths entry covers: an agent's edit of it changes what the job does",
			"add to protected_paths in sessiongate.yaml: " + strings.Join(open, ", ")}
	}
	if idle := cijob.UnphonyGoals(root); len(idle) > 0 {
		return Finding{"ci", Warn, strings.Join(named, ", ") + " runs sessiongate through make goals .PHONY does not list (" + strings.Join(idle, "; ") + "): a committed file of that name makes make call the goal up to date and run nothing",
			"declare each .PHONY in its Makefile"}
	}
	return Finding{"ci", OK, strings.Join(named, ", ") + " runs sessiongate", ""}
}

// doctorAgents checks each agent's hook config and that the command it
// runs, `sessiongate` from PATH, resolves.
func doctorAgents(root, binary string, getenv func(string) string) []Finding {
	var out []Finding
	add := func(check, status, detail, fix string) {
		out = append(out, Finding{Check: check, Status: status, Detail: detail, Fix: fix})
	}
	used := false
	for _, c := range AgentConfigs {
		st := CheckAgentConfig(root, c)
		name := "agent " + c.Name
		switch {
		case st.Err != nil:
			add(name, Fail, st.Path+" cannot be read: "+st.Err.Error(), "fix the file, then `sessiongate install --agent "+c.Name+"`")
		case !st.Exists:
			add(name, Warn, st.Path+" absent", "`sessiongate install --agent "+c.Name+"` if you use "+c.Name)
		case len(st.Missing) == len(c.Events):
			add(name, Warn, st.Path+" has no sessiongate hooks", "`sessiongate install --agent "+c.Name+"`")
		case len(st.Missing) > 0:
			used = true
			add(name, Warn, st.Path+" lacks sessiongate's hook for "+strings.Join(st.Missing, ", "), "`sessiongate install --agent "+c.Name+"`")
		case len(st.Outdated) > 0:
			used = true
			add(name, Warn, st.Path+" has an older sessiongate hook (matcher or timeout) for "+strings.Join(st.Outdated, ", "), "`sessiongate install --agent "+c.Name+"` updates it in place")
		default:
			used = true
			add(name, OK, st.Path+" runs `sessiongate agent-hook "+c.Name+" ...` at "+fmt.Sprint(len(c.Events))+" events", "")
		}
		if c.LocalPath != "" && st.Err == nil && st.Exists && len(st.Missing) < len(c.Events) {
			out = append(out, doctorLocalAgent(root, c))
		}
		if c.Name == "codex" && st.Err == nil && st.Exists && len(st.Missing) < len(c.Events) {
			out = append(out, doctorCodexTrust(root, getenv)...)
		}
	}
	if !used {
		return out
	}
	p := OnPath()
	switch {
	case p == "":
		add("agent PATH", Fail, "the agent hooks run `sessiongate` from PATH, and it is not on PATH", "install it (`go install github.com/sessiongate/sessiongate/cmd/sessiongate@latest`) or add its folder to PATH")
	case binary != "" && !sameFile(p, binary):
		add("agent PATH", Warn, "`sessiongate` on PATH is "+p+", not this binary ("+binary+")", "make sure PATH finds the version you mean")
	default:
		add("agent PATH", OK, "`sessiongate` on PATH is "+p, "")
	}
	return out
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// StartNotices warns, for session start, when the repository at root lacks
// sessiongate's commit hooks: an honest session's first commit was then
// recorded as a CRITICAL BYPASS and failed verify, with nothing said at
// the start (round 55, helper 329: a husky repository where install
// refused). What doctor finds failing for them, read from the hook files.
func StartNotices(ctx context.Context, root string) []string {
	loc, err := locateHooks(ctx, root)
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range doctorHooks(loc, "") {
		if f.Status == Fail && (f.Check == "hook pre-commit" || f.Check == "hook commit-msg") {
			out = append(out, fmt.Sprintf("warning: %s: a commit this session makes will be recorded as a bypass and fail verify; a person runs `%s` before the work", f.Detail, f.Fix))
		}
	}
	return out
}

// callsHook reports a hook script with a line that runs `sessiongate hook
// NAME` (the binary by name or path, quoted or not, maybe after exec)
// whose failure fails the hook: not `|| true`, a pipe, `;` or `&` after
// it, which would let a refused commit through while reading as wired.
func callsHook(b []byte, name string) bool {
	re := regexp.MustCompile(`(?m)^[ \t]*(?:exec[ \t]+)?["']?(?:[^\s"']*/)?sessiongate(?:\.exe)?["']?[ \t]+hook[ \t]+` + regexp.QuoteMeta(name) + `\b(.*)$`)
	for _, m := range re.FindAllSubmatch(b, -1) {
		if rest := strings.ReplaceAll(string(m[1]), "&&", ""); !strings.ContainsAny(rest, "|;&") {
			return true
		}
	}
	return false
}

func doctorHooks(loc hooksLocation, binary string) []Finding {
	var out []Finding
	preCommitCfg := filepath.Join(loc.Root, ".pre-commit-config.yaml")
	viaFramework := false
	if b, err := os.ReadFile(preCommitCfg); err == nil && bytes.Contains(b, []byte("sessiongate")) {
		viaFramework = true
	}
	for _, n := range Hooks {
		p := filepath.Join(loc.Dir, n)
		check := "hook " + n
		b, err := readHook(p)
		switch {
		case errors.Is(err, fs.ErrNotExist) && n == "pre-commit" && !viaFramework:
			out = append(out, Finding{check, Fail, p + " is missing: commits are not checked", "sessiongate install"})
			continue
		case errors.Is(err, fs.ErrNotExist) && slices.Contains(RecordOnlyHooks, n):
			out = append(out, Finding{check, Warn, p + " is not installed (an install older than it): " + verbOf(n) + " are recorded only at the next sessiongate call", "sessiongate install updates the install"})
			continue
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Finding{check, Warn, p + " is not installed", "sessiongate install (or --hooks " + n + ")"})
			continue
		case err != nil:
			out = append(out, Finding{check, Fail, err.Error(), "check the folder's permissions"})
			continue
		}
		if !IsOurs(b) {
			switch {
			case viaFramework && bytes.Contains(b, []byte("pre-commit")):
				out = append(out, Finding{check, OK, p + " is the pre-commit framework's; .pre-commit-config.yaml uses sessiongate", ""})
			case callsHook(b, n):
				// The way install tells a husky or lefthook repository to
				// wire it (helper 332: start warned, naming install, which
				// refuses there).
				out = append(out, Finding{check, OK, p + " is another tool's and runs `sessiongate hook " + n + "`", ""})
			default:
				out = append(out, Finding{check, Fail, p + " is not sessiongate's", "sessiongate install (it moves this hook aside and chains it)"})
			}
			continue
		}
		if !isExecutable(p) {
			out = append(out, Finding{check, Fail, p + " is not executable", "sessiongate install"})
			continue
		}
		bin, _ := ScriptBinary(b)
		chained := ""
		if _, err := os.Lstat(p + OrigSuffix); err == nil {
			chained = ", chained to " + n + OrigSuffix
		}
		switch {
		case !isExecutable(bin):
			out = append(out, Finding{check, Fail, p + " runs " + bin + ", which is missing (the hook falls back to PATH)", "sessiongate install, to record this binary's path"})
		case binary != "" && !sameFile(bin, binary):
			out = append(out, Finding{check, Warn, p + " runs " + bin + ", not this binary " + binary + chained, "sessiongate install, if this binary is the one to use"})
		case !bytes.Equal(b, Script(n, bin)):
			// Still correct (an older script starts the binary where this
			// one would not), but slower.
			out = append(out, Finding{check, Warn, p + " was written by an older sessiongate" + chained, "sessiongate install updates it"})
		default:
			out = append(out, Finding{check, OK, p + " runs " + bin + chained, ""})
		}
	}
	return out
}

func doctorDB(ctx context.Context, o DoctorOptions, getenv func(string) string, loc hooksLocation, cfg *config.Config) []Finding {
	p := o.DBPath
	if p == "" {
		p = getenv("SESSIONGATE_DB")
	}
	if p == "" {
		cd, err := git(ctx, o.Dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
		if err != nil {
			return []Finding{{"database", Fail, err.Error(), "run inside a git work tree"}}
		}
		p = filepath.Join(cd, "sessiongate", "sessiongate.db")
	}
	fix := "check the path (--db, SESSIONGATE_DB) and that its folder and file are writable by you; move away a file that is not a sessiongate database"
	db, err := store.Open(ctx, p)
	if err != nil {
		return []Finding{{"database", Fail, err.Error(), fix}}
	}
	defer db.Close()
	// An empty write transaction takes the write lock: proof it is writable.
	if err := db.Update(ctx, func(session.Writer) error { return nil }); err != nil {
		return []Finding{{"database", Fail, p + " is not writable: " + err.Error(), fix}}
	}
	n, err := db.CountSessions(ctx, session.SessionFilter{})
	if err != nil {
		return []Finding{{"database", Fail, err.Error(), fix}}
	}
	return append([]Finding{{"database", OK, fmt.Sprintf("%s (%d sessions), writable", p, n), ""}}, doctorProtected(ctx, db, cfg, loc)...)
}

// doctorProtected reports protected files (the protocol, the config, agent
// and hook configs) that differ from what a person accepted. It records
// nothing: with no accepted contents yet, the first session start does.
func doctorProtected(ctx context.Context, db *store.DB, cfg *config.Config, loc hooksLocation) []Finding {
	repo, err := gitrepo.Open(ctx, loc.Root)
	if err != nil {
		return nil
	}
	r, err := db.RepositoryByRoot(ctx, repo.MainRoot())
	if err != nil {
		return []Finding{{"protected", OK, "no accepted contents yet: the first session start records them", ""}}
	}
	if rows, err := db.TrustedFiles(ctx, r.ID); err != nil || len(rows) == 0 {
		return []Finding{{"protected", OK, "no accepted contents yet: the first session start records them", ""}}
	}
	changes, err := session.NewEngine(db, cfg.Engine(), nil).ProtectedChanges(ctx, repo)
	if err != nil {
		return []Finding{{"protected", Fail, err.Error(), "check the repository and the database"}}
	}
	if len(changes) == 0 {
		if !cfg.Protect {
			return []Finding{{"protected", OK, "protect: false (accepted)", ""}}
		}
		return []Finding{{"protected", OK, "the protocol, config and hook configs are as a person accepted them", ""}}
	}
	msgs := make([]string, len(changes))
	for i, c := range changes {
		msgs[i] = c.String()
	}
	return []Finding{{"protected", Fail, "changed without a person's acceptance: " + strings.Join(msgs, "; "),
		"review the change, then `sessiongate protocol accept --reason \"...\"` at a terminal (or revert it)"}}
}

func doctorProtocol(o DoctorOptions, getenv func(string) string, loc hooksLocation, cfg *config.Config) []Finding {
	p := o.ProtocolPath
	if p == "" {
		p = getenv("SESSIONGATE_PROTOCOL")
	}
	cands := []string{p}
	if p == "" {
		cands = []string{"SESSION-PROTOCOL.md", filepath.Join(".agents", "SESSION-PROTOCOL.md")}
		if cfg.Protocol != "" {
			cands = []string{cfg.Protocol}
		}
	}
	for _, c := range cands {
		abs := c
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(loc.Root, c)
		}
		b, err := os.ReadFile(abs)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return []Finding{{"protocol", Fail, err.Error(), "check the file's permissions"}}
		}
		spec, err := protocolspec.Parse(c, b)
		if err != nil {
			return []Finding{{"protocol", Fail, err.Error(), "fix the document (`sessiongate protocol lint` lists every problem)"}}
		}
		ids := make([]string, len(spec.Phases))
		for i, p := range spec.Phases {
			ids[i] = p.ID
		}
		if err := cfg.CheckPhases(ids); err != nil {
			return []Finding{{"protocol", Fail, fmt.Sprintf("%s parses, but the config names phases it lacks:\n%s", c, err),
				"use phase ids from `sessiongate protocol show` (a typo disables that gate)"}}
		}
		// The same warnings `protocol lint` prints: the parser's and the linter's.
		nw := len(spec.Warnings) + len(protocolspec.Lint(spec))
		if nw > 0 {
			return []Finding{{"protocol", OK, fmt.Sprintf("%s: %d phases, %d warnings (`sessiongate protocol lint` lists them)", c, len(spec.Phases), nw), ""}}
		}
		return []Finding{{"protocol", OK, fmt.Sprintf("%s: %d phases, 0 warnings", c, len(spec.Phases)), ""}}
	}
	return []Finding{{"protocol", Fail, "no protocol found (looked for " + strings.Join(cands, ", ") + ")", "sessiongate init writes a starter SESSION-PROTOCOL.md"}}
}

func less(a, b [3]int) bool {
	for i := range 3 {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func verString(v [3]int) string { return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Failed reports whether any finding failed.
func Failed(fs []Finding) bool {
	for _, f := range fs {
		if f.Status == Fail {
			return true
		}
	}
	return false
}

// doctorBuild says whether the binary was linked by the dynamic loader:
// nothing in sessiongate needs cgo (modernc.org/sqlite is Go), but `go
// install` links cgo in by default (for the net and os/user packages) when
// a C compiler is present, and every hook process then starts through
// ld.so first (docs/benchmarks.md: about 10% of an agent hook).
func doctorBuild(bi *debug.BuildInfo) Finding {
	f := Finding{Check: "binary", Status: OK, Detail: "built without cgo: statically linked"}
	if bi == nil {
		f.Status, f.Detail = Warn, "no build information in the binary"
		return f
	}
	for _, s := range bi.Settings {
		if s.Key == "CGO_ENABLED" && s.Value == "1" {
			f.Status = Warn
			f.Detail = "built with cgo: each hook process starts through the dynamic loader (about 10% slower)"
			f.Fix = "CGO_ENABLED=0 go install github.com/sessiongate/sessiongate/cmd/sessiongate@latest"
		}
	}
	return f
}

// doctorCodexTrust says whether Codex will run the project's hooks at all:
// an untrusted project's .codex/ is not loaded, and an untrusted hook is
// skipped, both silently.
func doctorCodexTrust(root string, getenv func(string) string) []Finding {
	ct := readCodexTrust(root, getenv)
	trustFix := "add to " + ct.Config + ":\n  [projects.\"" + root + "\"]\n  trust_level = \"trusted\"\n(or answer Codex's trust prompt in this folder)"
	var out []Finding
	switch {
	case ct.Err != nil:
		out = append(out, Finding{Check: "codex trust", Status: Warn, Detail: ct.Config + " cannot be read: " + ct.Err.Error(), Fix: trustFix})
		return out
	case !ct.Exists:
		out = append(out, Finding{Check: "codex trust", Status: Warn, Detail: ct.Config + " absent: Codex does not load .codex/hooks.json of an untrusted project", Fix: trustFix})
		return out
	case !ct.Trusted:
		out = append(out, Finding{Check: "codex trust", Status: Warn, Detail: ct.Config + " does not trust " + root + ": Codex skips its .codex/hooks.json silently", Fix: trustFix})
		return out
	}
	out = append(out, Finding{Check: "codex trust", Status: OK, Detail: ct.Config + " trusts " + ct.TrustedAt, Fix: ""})
	hookFix := "trust the hooks once: run `codex` in the repository and accept them in /hooks (it writes [hooks.state.\"...\"] trusted_hash to " + ct.Config + "), or run `codex exec --dangerously-bypass-hook-trust`"
	if ct.HookTrusted == 0 {
		out = append(out, Finding{Check: "codex hook trust", Status: Warn, Detail: "no trusted_hash for this project's hooks in " + ct.Config + ": Codex skips untrusted hooks silently (and again after sessiongate's hooks change)", Fix: hookFix})
	} else {
		out = append(out, Finding{Check: "codex hook trust", Status: OK, Detail: fmt.Sprintf("%d of %d hook entries of this project trusted in %s", ct.HookTrusted, ct.HookStates, ct.Config)})
	}
	return out
}

// verbOf says what a record-only hook records.
func verbOf(hook string) string {
	if hook == "post-rewrite" {
		return "rewritten commits (amend, rebase)"
	}
	return "merges"
}

// doctorLocalAgent checks the agent's machine-local config (LocalPath):
// without it, or with its binary gone, the committed by-name hooks are the
// only ones and a `sessiongate` on PATH answers them.
func doctorLocalAgent(root string, c AgentConfig) Finding {
	name := "agent " + c.Name + " local"
	p := filepath.Join(root, filepath.FromSlash(c.LocalPath))
	var missing []string
	bins := map[string]bool{}
	for _, ev := range c.Events {
		bin := LocalHookBinary(root, c.Name, ev.Name)
		if bin == "" {
			missing = append(missing, ev.Name)
			continue
		}
		bins[bin] = true
	}
	next := "`sessiongate install --agent " + c.Name + "` writes it with this binary's path"
	if len(missing) > 0 {
		return Finding{Check: name, Status: Warn, Detail: p + " lacks sessiongate's hook by path for " + strings.Join(missing, ", ") + ": a `sessiongate` on PATH answers those", Fix: next}
	}
	for b := range bins {
		if fi, err := os.Stat(b); err != nil || fi.Mode().Perm()&0o111 == 0 {
			return Finding{Check: name, Status: Warn, Detail: p + " runs " + b + ", which is not there", Fix: next}
		}
	}
	return Finding{Check: name, Status: OK, Detail: p + " runs sessiongate by path at " + fmt.Sprint(len(c.Events)) + " events"}
}
