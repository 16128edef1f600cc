package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Options says what to install.
type Options struct {
	// Dir is a folder inside the work tree.
	Dir string
	// Binary is the absolute path of the sessiongate executable the hooks exec.
	Binary string
	// Hooks to install; nil means Hooks.
	Hooks []string
	// MCP names the MCP clients to configure: claude, cursor, vscode.
	MCP []string
	// Force installs into a core.hooksPath folder another tool manages.
	Force bool
	// Agents names the coding agents whose hook configs to merge:
	// claude, codex, copilot, cursor, gemini (agentconfig.go).
	Agents []string
}

// Change is one thing install or uninstall did (or found already done).
type Change struct {
	Path   string `json:"path"`
	Action string `json:"action"` // wrote, updated, unchanged, chained, removed, restored, kept
	Note   string `json:"note,omitempty"`
}

// Report lists what happened.
type Report struct {
	HooksDir string   `json:"hooks_dir"`
	Changes  []Change `json:"changes"`
}

func (r *Report) add(path, action, note string) {
	r.Changes = append(r.Changes, Change{Path: path, Action: action, Note: note})
}

// gitHookNames are the hooks git knows; a file with one of these names in
// a hooks folder is a hook.
var gitHookNames = []string{
	"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
	"pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
	"reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate",
	"fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
	"post-index-change",
}

// ErrManagedElsewhere is returned when core.hooksPath points at a folder
// another tool owns.
var ErrManagedElsewhere = errors.New("hooks folder managed by another tool")

// Install writes the hook scripts (and MCP configs). A foreign hook is
// moved aside to NAME.sessiongate-orig and chained. Installing again
// changes nothing unless the binary moved.
func Install(ctx context.Context, opts Options) (*Report, error) {
	if !filepath.IsAbs(opts.Binary) {
		return nil, fmt.Errorf("install: binary path %q is not absolute", opts.Binary)
	}
	names := opts.Hooks
	if names == nil {
		names = Hooks
	}
	for _, n := range names {
		if !slices.Contains(Hooks, n) {
			return nil, fmt.Errorf("install: unknown hook %q (want some of %s)", n, strings.Join(Hooks, ","))
		}
	}
	clients, err := ParseMCPClients(opts.MCP)
	if err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	agents, err := ParseAgents(opts.Agents)
	if err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	loc, err := locateHooks(ctx, opts.Dir)
	if err != nil {
		return nil, err
	}
	rep := &Report{HooksDir: loc.Dir}
	if loc.HooksPath != "" && !opts.Force {
		if err := checkHooksPath(loc); err != nil {
			return nil, err
		}
	}
	// Decide everything before touching anything, so a refusal leaves the
	// folder as it was.
	type step struct {
		name, path string
		existing   []byte
		exists     bool
		foreign    bool
	}
	var steps []step
	for _, n := range names {
		p := filepath.Join(loc.Dir, n)
		st := step{name: n, path: p}
		b, err := readHook(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("install: read %s: %w", p, err)
		default:
			st.exists, st.existing, st.foreign = true, b, !IsOurs(b)
		}
		if st.foreign {
			if _, err := os.Lstat(p + OrigSuffix); err == nil {
				return nil, fmt.Errorf("install: %s is not ours and %s already holds an earlier hook: move one of them away by hand, then install again", p, p+OrigSuffix)
			}
		}
		steps = append(steps, st)
	}
	// MCP and agent configs are read and merged before anything is
	// written: one that cannot be parsed refuses the whole install.
	mcpPlans, err := planMCPs(loc.Root, clients, true)
	if err != nil {
		return nil, err
	}
	agentPlans, err := planAgents(loc.Root, agents, true, opts.Binary)
	if err != nil {
		return nil, err
	}
	excludePlan, err := planLocalExclude(ctx, loc.Root, agents)
	if err != nil {
		return nil, err
	}
	// Every write goes through t: a failure half way puts back what was
	// already changed.
	t := &fileTxn{}
	fail := func(err error) (*Report, error) {
		if rerr := t.rollback(); rerr != nil {
			return nil, fmt.Errorf("%w; putting back the earlier changes also failed: %v", err, rerr)
		}
		return nil, fmt.Errorf("%w; nothing was changed", err)
	}
	if err := t.mkdirAll(loc.Dir); err != nil {
		return fail(fmt.Errorf("install: create %s: %w", loc.Dir, err))
	}
	for _, st := range steps {
		want := Script(st.name, opts.Binary)
		switch {
		case st.exists && !st.foreign && bytes.Equal(st.existing, want) && isExecutable(st.path):
			rep.add(st.path, "unchanged", "")
			continue
		case st.foreign:
			// Rename keeps the original's bytes, mode and symlink-ness for uninstall.
			if err := t.rename(st.path, st.path+OrigSuffix); err != nil {
				return fail(fmt.Errorf("install: move %s aside: %w", st.path, err))
			}
			rep.add(st.path+OrigSuffix, "chained", "the existing hook, now run first")
		}
		if err := t.write(st.path, want, 0o755); err != nil {
			return fail(fmt.Errorf("install: %w", err))
		}
		action := "wrote"
		if st.exists && !st.foreign {
			action = "updated"
		}
		rep.add(st.path, action, "")
	}
	chs, err := applyFilePlans(t, mcpPlans)
	if err != nil {
		return fail(fmt.Errorf("install --mcp: %w", err))
	}
	rep.Changes = append(rep.Changes, chs...)
	chs, err = applyAgentPlans(t, agentPlans, "install")
	if err != nil {
		return fail(err)
	}
	rep.Changes = append(rep.Changes, chs...)
	if excludePlan != nil {
		chs, err = applyFilePlans(t, []filePlan{*excludePlan})
		if err != nil {
			return fail(fmt.Errorf("install --agent: %w", err))
		}
		rep.Changes = append(rep.Changes, chs...)
	}
	return rep, nil
}

// planLocalExclude adds the agents' machine-local configs (LocalPath) to
// the repository's info/exclude when git does not ignore them yet: they
// carry this machine's binary path and must not be committed. Claude Code
// ignores .claude/settings.local.json itself only when it creates the
// file. nil when nothing is to be added.
func planLocalExclude(ctx context.Context, root string, agents []AgentConfig) (*filePlan, error) {
	var add []string
	for _, c := range agents {
		if c.LocalPath == "" {
			continue
		}
		// check-ignore exits 1 for a path no rule ignores.
		if _, err := git(ctx, root, "check-ignore", "-q", "--no-index", c.LocalPath); err == nil {
			continue
		}
		add = append(add, "/"+c.LocalPath)
	}
	if len(add) == 0 {
		return nil, nil
	}
	common, err := git(ctx, root, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return nil, fmt.Errorf("install --agent: find the git directory for info/exclude: %w", err)
	}
	p := filePlan{path: filepath.Join(common, "info", "exclude"), mode: 0o644, action: "updated"}
	b, err := os.ReadFile(p.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.action = "wrote"
	case err != nil:
		return nil, fmt.Errorf("install --agent: read %s: %w", p.path, err)
	default:
		p.exists = true
	}
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	b = append(b, "# sessiongate install: machine-local agent hook configs (they hold this machine's binary path)\n"...)
	for _, a := range add {
		b = append(b, a+"\n"...)
	}
	p.out, p.note = b, "ignores "+strings.Join(add, ", ")
	return &p, nil
}

// readHook reads a hook; a symlink is read through (its target's content
// says whose it is) but moved as the link itself.
func readHook(p string) ([]byte, error) {
	if _, err := os.Lstat(p); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return []byte{}, nil // dangling symlink: foreign, empty
	}
	return b, err
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().Perm()&0o111 != 0
}

// checkHooksPath refuses a core.hooksPath folder that another tool
// manages: husky's folders, or any folder holding hooks that are not ours.
func checkHooksPath(loc hooksLocation) error {
	owner := ""
	for _, part := range strings.Split(filepath.ToSlash(loc.Dir), "/") {
		if part == ".husky" {
			owner = "husky"
		}
	}
	var foreign []string
	entries, err := os.ReadDir(loc.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("install: read %s: %w", loc.Dir, err)
	}
	for _, e := range entries {
		n := e.Name()
		if !slices.Contains(gitHookNames, n) {
			continue
		}
		b, err := readHook(filepath.Join(loc.Dir, n))
		if err == nil && !IsOurs(b) {
			foreign = append(foreign, n)
		}
	}
	if owner == "" && len(foreign) == 0 {
		return nil
	}
	if owner == "" {
		owner = "another tool"
	}
	sort.Strings(foreign)
	found := ""
	if len(foreign) > 0 {
		found = " (it holds " + strings.Join(foreign, ", ") + ")"
	}
	return fmt.Errorf(`%w: core.hooksPath is %q, a folder %s manages%s.
Installing there would fight that tool. Either:
  - call sessiongate from that tool's hooks: add the line
      sessiongate hook <name> "$@"
    to its pre-commit, commit-msg, post-commit and pre-push hooks (docs/hooks.md), or
  - stop using it for this repository: git config --unset core.hooksPath, then sessiongate install, or
  - sessiongate install --force to move its hooks aside and chain them (they run first)`,
		ErrManagedElsewhere, loc.HooksPath, owner, found)
}

// Uninstall removes every hook script of ours in the hooks folder and
// renames each chained original back, byte for byte with its mode, then
// removes sessiongate's server from every MCP client config (UninstallMCP).
// Hooks and MCP servers that are not ours stay.
func Uninstall(ctx context.Context, dir string) (*Report, error) {
	loc, err := locateHooks(ctx, dir)
	if err != nil {
		return nil, err
	}
	// A config that cannot be parsed is kept as it is and said so: it
	// must not stop the git hooks from coming out.
	var mcpPlans []filePlan
	var kept []Change
	for _, c := range MCPClients {
		p, err := planMCP(loc.Root, c, false)
		if err != nil {
			kept = append(kept, Change{Path: filepath.Join(loc.Root, filepath.FromSlash(c.Path)), Action: "kept", Note: err.Error()})
			continue
		}
		mcpPlans = append(mcpPlans, p)
	}
	rep, err := uninstallHooks(loc)
	if err != nil {
		return rep, err
	}
	rep.Changes = append(rep.Changes, kept...)
	t := &fileTxn{}
	chs, err := applyFilePlans(t, mcpPlans)
	for _, ch := range chs {
		if ch.Action != "unchanged" {
			rep.Changes = append(rep.Changes, ch)
		}
	}
	if err != nil {
		return rep, fmt.Errorf("uninstall --mcp: %w", err)
	}
	return rep, nil
}

// UninstallMCP removes exactly sessiongate's server entry from the named
// clients' configs (and the file, or the servers object, when nothing else
// is left); the git hooks stay. All or nothing.
func UninstallMCP(ctx context.Context, dir string, clients []MCPClient) (*Report, error) {
	loc, err := locateHooks(ctx, dir)
	if err != nil {
		return nil, err
	}
	rep := &Report{HooksDir: loc.Dir}
	plans, err := planMCPs(loc.Root, clients, false)
	if err != nil {
		return nil, err
	}
	t := &fileTxn{}
	chs, err := applyFilePlans(t, plans)
	if err != nil {
		if rerr := t.rollback(); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return rep, fmt.Errorf("uninstall --mcp: %w", err)
	}
	rep.Changes = chs
	return rep, nil
}

func uninstallHooks(loc hooksLocation) (*Report, error) {
	rep := &Report{HooksDir: loc.Dir}
	entries, err := os.ReadDir(loc.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return rep, nil
	}
	if err != nil {
		return nil, fmt.Errorf("uninstall: read %s: %w", loc.Dir, err)
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, OrigSuffix) || strings.HasPrefix(n, ".") {
			continue
		}
		p := filepath.Join(loc.Dir, n)
		b, err := readHook(p)
		if err != nil || !IsOurs(b) {
			continue
		}
		if err := os.Remove(p); err != nil {
			return rep, fmt.Errorf("uninstall: remove %s: %w", p, err)
		}
		rep.add(p, "removed", "")
	}
	// Restore originals whose place is free (ours was just removed).
	for _, e := range entries {
		n := e.Name()
		base, ok := strings.CutSuffix(n, OrigSuffix)
		if !ok || base == "" {
			continue
		}
		orig, p := filepath.Join(loc.Dir, n), filepath.Join(loc.Dir, base)
		if _, err := os.Lstat(p); err == nil {
			rep.add(orig, "kept", p+" is not ours: restore "+n+" by hand if you want it back")
			continue
		}
		if err := os.Rename(orig, p); err != nil {
			return rep, fmt.Errorf("uninstall: restore %s: %w", p, err)
		}
		rep.add(p, "restored", "from "+n)
	}
	return rep, nil
}
