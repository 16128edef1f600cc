package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tailscale/hujson"
	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/cijob"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// Hook configs changed in the range (issue 26 item 2.3). sessiongate's git
// hooks and agent hooks live in committed files the agent can edit: drop
// the PreToolUse entry from .claude/settings.json, add disableAllHooks,
// set the pre-commit hook's stages to manual, put `exit 0` at the top of
// .husky/pre-commit. Locally protect flags that; in CI nothing did. Here
// each such file is read at the base and the tip, sessiongate's entries
// are taken out of both (not the bytes: adding another tool's hook is an
// honest change), and a file whose tip lost or changed one of the base's
// entries, or changed a switch that turns hooks off, fails the commit that
// last touched it unless a person signed for it (as for the protocol and
// config: a signed acceptance of the tip's content, or the commit signed
// by a listed signer).

// hookConfigPaths are the files sessiongate installs into or documents
// (hooks.AgentConfigs; docs/hooks.md for the pre-commit framework,
// lefthook and husky), and the files beside them that switch hooks off.
var hookConfigPaths = []string{
	".pre-commit-config.yaml", ".pre-commit-config.yml", ".pre-commit-hooks.yaml",
	"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml",
	":(glob).husky/*", ":(glob).githooks/*",
	".claude/settings.json", ".gemini/settings.json", ".cursor/hooks.json",
	":(glob).codex/**", ":(glob).github/copilot*", ":(glob).github/hooks/**",
}

// hookGroupFile is, per folder, the file whose sessiongate entries make
// its other files matter: .codex/config.toml's `codex_hooks = false`
// turns off .codex/hooks.json.
var hookGroupFile = map[string]string{".codex": ".codex/hooks.json", ".github": ".github/hooks/sessiongate.json"}

// hookEntries is what a hook config says about sessiongate.
type hookEntries struct {
	sg     []string // sessiongate's entries, each with where it sits
	guards []string // switches that turn hooks off, with their values
	err    error    // the file does not parse
}

// guardKeyRE matches keys that turn hooks (or some of them) off, read
// where their path names hooks; disableAllHooks and the pre-commit
// framework's install and stage defaults anywhere.
var guardKeyRE = lazyregexp.New(`(?i)^(disable\w*|enable\w*|enabled|disabled|skip|only|stages|types|codex_hooks)$`)

var globalGuards = map[string]bool{"disableAllHooks": true, "default_install_hook_types": true, "default_stages": true}

var earlyExitRE = lazyregexp.New(`^\s*(exit|return|exec)\b|^\s*\S.*\|\|\s*exit\s+0\b`)

func mentionsSG(s string) bool { return strings.Contains(strings.ToLower(s), "sessiongate") }

// readHookEntries takes sessiongate's entries out of a hook config.
func readHookEntries(p string, b []byte) hookEntries {
	var e hookEntries
	switch ext := path.Ext(p); {
	case ext == ".json":
		std, err := hujson.Standardize(b)
		if err != nil {
			return hookEntries{err: err}
		}
		var v any
		if err := json.Unmarshal(std, &v); err != nil {
			return hookEntries{err: err}
		}
		e.walk(v, "", "")
	case ext == ".yaml" || ext == ".yml":
		var v any
		if err := yaml.Unmarshal(b, &v); err != nil {
			return hookEntries{err: err}
		}
		e.walk(v, "", "")
	default:
		// A script or a TOML file: sessiongate's lines, and the lines that
		// end the script or switch hooks off before them.
		lines := strings.Split(string(b), "\n")
		last := -1
		for i, l := range lines {
			if t := strings.TrimSpace(l); mentionsSG(t) && !strings.HasPrefix(t, "#") {
				last = i
			}
		}
		for i, l := range lines {
			t := strings.TrimSpace(l)
			switch {
			case t == "" || strings.HasPrefix(t, "#"):
			case mentionsSG(t):
				e.sg = append(e.sg, t)
			case i < last && earlyExitRE.MatchString(t), strings.Contains(strings.ToLower(t), "hook") && strings.Contains(t, "="):
				e.guards = append(e.guards, t)
			}
		}
	}
	sort.Strings(e.sg)
	e.sg = slices.Compact(e.sg)
	sort.Strings(e.guards)
	return e
}

// walk records each map holding a value that names sessiongate, with its
// path (list positions dropped: another hook added before it moves
// nothing) and the plain fields of the maps around it (a matcher, a
// hook's skip), and the guard keys on the way.
func (e *hookEntries) walk(v any, at, around string) {
	switch x := v.(type) {
	case map[string]any:
		flat, sg := flatFields(x)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			kp := at + "." + k
			if plain(x[k]) && (globalGuards[k] || guardKeyRE.MatchString(k) && strings.Contains(strings.ToLower(kp), "hook")) {
				e.guards = append(e.guards, kp+"="+canonical(x[k]))
			}
		}
		if sg {
			e.sg = append(e.sg, at+" "+around+flat)
		}
		inner := around
		if at != "" {
			inner += flat
		}
		for _, k := range keys {
			if !plain(x[k]) {
				e.walk(x[k], at+"."+k, inner)
			}
		}
	case []any:
		for _, it := range x {
			if !plain(it) {
				e.walk(it, at+"[]", around)
			}
		}
	}
}

// plain is a scalar or a list of scalars.
func plain(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return false
	case []any:
		for _, it := range x {
			if !plain(it) || isList(it) {
				return false
			}
		}
	}
	return true
}

func isList(v any) bool { _, ok := v.([]any); return ok }

// flatFields is a map's plain fields as canonical JSON, and whether one
// names sessiongate. rev and version are left out: upgrading sessiongate
// (pre-commit autoupdate) keeps its hooks.
func flatFields(m map[string]any) (string, bool) {
	f := map[string]any{}
	sg := false
	for k, v := range m {
		if !plain(v) || k == "rev" || k == "version" {
			continue
		}
		f[k] = v
		if mentionsSG(canonical(v)) {
			sg = true
		}
	}
	return canonical(f), sg
}

func canonical(v any) string {
	b, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// hookConfigs flags each hook config of base..tip that lost or changed
// sessiongate's entries, or turned hooks off.
func (t *protocolTrust) hookConfigs(ctx context.Context, rep *Report, index map[string]int, tip string) error {
	if t == nil || t.bl == nil || t.bl.Rev == "" {
		return nil // the adoption range: nothing installed to weaken
	}
	callees, globs, err := t.ciCallees(ctx)
	if err != nil {
		return err
	}
	paths := slices.Concat(hookConfigPaths, ciJobPaths())
	for _, p := range slices.Concat(callees.YAML, slices.Collect(maps.Keys(callees.Make)), callees.MakeIncludes) {
		paths = append(paths, ":(literal)"+p)
	}
	for g := range globs {
		paths = append(paths, ":(glob)"+g)
	}
	for _, mf := range callees.DefaultMake {
		for _, n := range cijob.Makefiles { // a new one make would read first
			if p := path.Join(path.Dir(mf), n); callees.Shadows(p) != "" {
				paths = append(paths, ":(literal)"+p)
			}
		}
	}
	_, status, err := t.repo.DiffZero(ctx, t.bl.Rev, tip, paths)
	if err != nil {
		return fmt.Errorf("hook configs changed in the range: %w", err)
	}
	for _, s := range status {
		if mf := callees.Shadows(s.Path); mf != "" && s.Status == "A" {
			what := fmt.Sprintf("adds it, and make reads it before %s, whose goals the CI job runs sessiongate through", mf)
			if err := t.flagUnlessSigned(ctx, rep, index, tip, s.Path, what, "CI job"); err != nil {
				return err
			}
			continue
		}
		if ci := globbedBy(globs, s.Path); ci != "" && s.Status == "A" && !cijob.Match(s.Path) {
			base, err := t.repo.ReadAt(ctx, t.bl.Rev, ci)
			if err != nil {
				return fmt.Errorf("read %s at %s: %w", ci, shorten.SHA(t.bl.Rev), err)
			}
			added, err := t.repo.ReadAt(ctx, tip, s.Path)
			if err != nil {
				return fmt.Errorf("read %s at %s: %w", s.Path, shorten.SHA(tip), err)
			}
			if what := cijob.Overrides(base, t.readBase(ctx), added); what != "" {
				if err := t.flagUnlessSigned(ctx, rep, index, tip, s.Path, "adds it, which "+ci+" includes by wildcard, and "+what, "CI job"); err != nil {
					return err
				}
			}
			continue
		}
		if slices.Contains(callees.MakeIncludes, s.Path) && s.Status == "A" {
			after, err := t.repo.ReadAt(ctx, tip, s.Path)
			if err != nil {
				return fmt.Errorf("read %s at %s: %w", s.Path, shorten.SHA(tip), err)
			}
			if err := t.flagUnlessSigned(ctx, rep, index, tip, s.Path, cijob.IncludeWeakened(nil, after), "CI job"); err != nil {
				return err
			}
			continue
		}
		if s.Status == "A" || strings.HasPrefix(s.Path, ".husky/_/") {
			continue // nothing of sessiongate's there at the base
		}
		kind, weakened := "hook config", t.hookWeakened
		switch goals, isMake := callees.Make[s.Path]; {
		case cijob.Match(s.Path) || slices.Contains(callees.YAML, s.Path):
			kind, weakened = "CI job", t.ciJobWeakened
		case isMake:
			kind = "CI job"
			weakened = func(ctx context.Context, s gitrepo.PathChange, tip string) (string, error) {
				return t.makeWeakened(ctx, s, tip, goals)
			}
		case slices.Contains(callees.MakeIncludes, s.Path):
			kind = "CI job"
			weakened = func(ctx context.Context, s gitrepo.PathChange, tip string) (string, error) {
				return t.makeWeakened(ctx, s, tip, nil)
			}
		}
		what, err := weakened(ctx, s, tip)
		if err != nil {
			return err
		}
		if what == "" {
			continue
		}
		if err := t.flagUnlessSigned(ctx, rep, index, tip, s.Path, what, kind); err != nil {
			return err
		}
	}
	return nil
}

// ciJobPaths are cijob's CI files as pathspecs.
func ciJobPaths() []string {
	out := make([]string, len(cijob.Patterns))
	for i, p := range cijob.Patterns {
		out[i] = ":(glob)" + p
	}
	return out
}

// ciJobWeakened says what the range did to the parts of a CI file that
// decide whether and how sessiongate runs there (cijob), "" when it kept
// them. The pre-commit hook refuses such an agent commit; a commit made
// with the hooks off, or whose verify job still runs after it (a path
// filter, --recheck 0, an env block), is flagged here, and when the
// verify job comes from the base (GitHub's pull_request_target or a
// required workflow, GitLab's CI file in another project) whatever the
// branch did to its own copy is.
func (t *protocolTrust) ciJobWeakened(ctx context.Context, s gitrepo.PathChange, tip string) (string, error) {
	before, after, err := t.bothEnds(ctx, s.Path, tip)
	if err != nil {
		return "", err
	}
	return cijob.Weakened(before, after, t.readBase(ctx)), nil
}

// bothEnds reads path at the base and at tip (nil: tip deleted it).
func (t *protocolTrust) bothEnds(ctx context.Context, p, tip string) (before, after []byte, err error) {
	if before, err = t.repo.ReadAt(ctx, t.bl.Rev, p); err != nil {
		return nil, nil, fmt.Errorf("read %s at %s: %w", p, shorten.SHA(t.bl.Rev), err)
	}
	after, err = t.repo.ReadAt(ctx, tip, p)
	if errors.Is(err, gitrepo.ErrNoFile) {
		return before, nil, nil
	} else if err != nil {
		return nil, nil, fmt.Errorf("read %s at %s: %w", p, shorten.SHA(tip), err)
	}
	return before, after, nil
}

// globbedBy names the CI file whose wildcard include matches p, "".
func globbedBy(globs map[string]string, p string) string {
	for g, ci := range globs {
		if ok, _ := doublestar.Match(g, p); ok {
			return ci
		}
	}
	return ""
}

// readBase reads the base's tree, for cijob.
func (t *protocolTrust) readBase(ctx context.Context) cijob.Reader {
	return func(rel string) ([]byte, bool) {
		b, err := t.repo.ReadAt(ctx, t.bl.Rev, rel)
		return b, err == nil
	}
}

// ciCallees lists the files beyond the CI files through which the base's
// CI jobs run sessiongate: included and called workflows, and Makefiles
// with the goals (cijob.CalleesOf).
func (t *protocolTrust) ciCallees(ctx context.Context) (cijob.Callees, map[string]string, error) {
	out := cijob.Callees{Make: map[string][]string{}}
	globs := map[string]string{} // wildcard include -> the CI file at the base that has it
	files, err := t.repo.FilesAt(ctx, t.bl.Rev, cijob.Patterns)
	if err != nil {
		return out, nil, fmt.Errorf("CI files at the base: %w", err)
	}
	rd := t.readBase(ctx)
	for _, f := range files {
		b, ok := rd(f)
		if !ok {
			continue
		}
		for _, g := range cijob.IncludeGlobs(b, rd) {
			globs[g] = f
		}
		c := cijob.CalleesOf(b, rd)
		for _, y := range c.YAML {
			if !cijob.Match(y) && !slices.Contains(out.YAML, y) {
				out.YAML = append(out.YAML, y)
			}
		}
		for mf, gs := range c.Make {
			out.Make[mf] = append(out.Make[mf], gs...)
		}
		for _, f := range c.MakeIncludes {
			if !slices.Contains(out.MakeIncludes, f) {
				out.MakeIncludes = append(out.MakeIncludes, f)
			}
		}
		out.DefaultMake = append(out.DefaultMake, c.DefaultMake...)
	}
	return out, globs, nil
}

// makeWeakened says what the range did to the rules of the make goals the
// base's CI jobs run sessiongate through (goals nil: to a file such a
// Makefile includes, where any change counts).
func (t *protocolTrust) makeWeakened(ctx context.Context, s gitrepo.PathChange, tip string, goals []string) (string, error) {
	before, after, err := t.bothEnds(ctx, s.Path, tip)
	if err != nil {
		return "", err
	}
	if goals == nil {
		return cijob.IncludeWeakened(before, after), nil
	}
	return cijob.MakeWeakened(before, after, goals), nil
}

// hookWeakened says what the range did to sessiongate's entries of one
// hook config ("" when it kept them).
func (t *protocolTrust) hookWeakened(ctx context.Context, s gitrepo.PathChange, tip string) (string, error) {
	read := func(rev string) (hookEntries, bool, error) {
		b, err := t.repo.ReadAt(ctx, rev, s.Path)
		if errors.Is(err, gitrepo.ErrNoFile) {
			return hookEntries{}, false, nil
		}
		if err != nil {
			return hookEntries{}, false, fmt.Errorf("read %s at %s: %w", s.Path, shorten.SHA(rev), err)
		}
		return readHookEntries(s.Path, b), true, nil
	}
	base, _, err := read(t.bl.Rev)
	if err != nil || base.err != nil {
		return "", err // a base that did not parse held nothing sessiongate could rely on
	}
	if len(base.sg) == 0 {
		// A file beside the hooks (.codex/config.toml) matters when its
		// folder's hook file is sessiongate's.
		g, ok := hookGroupFile[strings.SplitN(s.Path, "/", 2)[0]]
		if !ok || g == s.Path || len(base.guards) == 0 && s.Status == "D" {
			return "", nil
		}
		b, err := t.repo.ReadAt(ctx, t.bl.Rev, g)
		if err != nil && !errors.Is(err, gitrepo.ErrNoFile) {
			// Unread is not "no hooks there": a partial clone that cannot
			// fetch it would pass the sibling's change unjudged.
			return "", fmt.Errorf("read %s at %s: %w", g, shorten.SHA(t.bl.Rev), err)
		}
		if err != nil || len(readHookEntries(g, b).sg) == 0 {
			return "", nil
		}
	}
	head, exists, err := read(tip)
	switch {
	case err != nil:
		return "", err
	case !exists:
		if len(base.sg) == 0 && len(base.guards) == 0 {
			return "", nil
		}
		return "deletes it, and with it sessiongate's hooks", nil
	case head.err != nil:
		return fmt.Sprintf("leaves it unparsable (%v), so the tool ignores it and sessiongate's hooks with it", oneLine(head.err.Error())), nil
	}
	var what []string
	var lost []string
	for _, x := range base.sg {
		if !slices.Contains(head.sg, x) && !widened(x, head.sg) {
			lost = append(lost, shorten.Bytes(strings.TrimSpace(x), 160, "..."))
		}
	}
	if len(lost) > 0 {
		what = append(what, fmt.Sprintf("removes or changes %d of sessiongate's entries (%s)", len(lost), strings.Join(lost, "; ")))
	}
	if !slices.Equal(base.guards, head.guards) {
		var added []string
		for _, g := range head.guards {
			if !slices.Contains(base.guards, g) {
				added = append(added, shorten.Bytes(g, 120, "..."))
			}
		}
		for _, g := range base.guards {
			if !slices.Contains(head.guards, g) {
				added = append(added, "no longer "+shorten.Bytes(g, 120, "..."))
			}
		}
		what = append(what, "changes what turns hooks on or off ("+strings.Join(added, "; ")+")")
	}
	return strings.Join(what, "; "), nil
}

// matcherRE finds a matcher field in an entry's canonical JSON.
var matcherRE = lazyregexp.New(`"matcher":"((?:[^"\\]|\\.)*)"`)

// widened reports whether one of head's entries is the base entry x with
// only its matcher widened: every alternative of x's matcher ("Bash" in
// "Write|Bash") is one of the new matcher's, so it matches at least every
// tool the old one did. Upgrading sessiongate's hooks does this (Agent
// and Task calls were added to Claude Code's PreToolUse); a narrowed or
// rewritten matcher still counts as a change.
func widened(x string, head []string) bool {
	m := matcherRE.FindStringSubmatchIndex(x)
	if m == nil {
		return false
	}
	old := strings.Split(x[m[2]:m[3]], "|")
	for _, y := range head {
		n := matcherRE.FindStringSubmatchIndex(y)
		if n == nil || x[:m[2]] != y[:n[2]] || x[m[3]:] != y[n[3]:] {
			continue
		}
		alts := strings.Split(y[n[2]:n[3]], "|")
		if !strings.ContainsAny(x[m[2]:m[3]], "()[]") && !strings.ContainsAny(y[n[2]:n[3]], "()[]") && subset(old, alts) {
			return true
		}
	}
	return false
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// flagUnlessSigned puts what on the newest commit of the range that
// touched p: a note when a listed signer accepted the tip's content or
// signed that commit, else a failure.
func (t *protocolTrust) flagUnlessSigned(ctx context.Context, rep *Report, index map[string]int, tip, p, what, kind string) error {
	if t.acc == nil {
		t.acc = t.loadAcceptances(ctx)
	}
	heads, err := t.repo.SHA256sAt(ctx, tip, []string{p})
	if err != nil && !errors.Is(err, gitrepo.ErrNoFile) {
		return err
	}
	commit, listed := "", false
	if shas, err := t.repo.PathCommits(ctx, t.revs, p); err == nil {
		listed = true
		if len(shas) > 0 {
			commit = shas[0]
		}
	}
	i, ok := index[commit]
	if !ok {
		if i, ok = index[tip]; !ok {
			return nil
		}
	}
	cr := &rep.Commits[i]
	if listed && commit == "" && t.baseMoved(ctx, tip, p, heads[p]) {
		// A person's CI job or hook config added on main after the
		// branch forked, as the rerun guard's tests (rerunguard.go).
		cr.Problems = append(cr.Problems, fmt.Sprintf("%s: %s %s; noted: no commit of this range changes it, and the branch holds it as where it forks from the base: the base changed it since", kind, p, what))
		return nil
	}
	if why, ok := t.acc.signed[p+"\x00"+heads[p]]; ok {
		cr.Problems = append(cr.Problems, fmt.Sprintf("%s: %s %s; %s", kind, p, what, why))
		return nil
	}
	if commit != "" && t.acc.canVerify() {
		if st, s, err := t.repo.CommitSigner(ctx, commit, t.acc.allowed); err == nil && st == "G" && t.acc.listed(s) {
			cr.Problems = append(cr.Problems, fmt.Sprintf("%s: %s %s; the commit is signed by %s, a listed signer", kind, p, what, s))
			return nil
		}
	}
	cr.Status = "fail"
	rep.OK = false
	msg := fmt.Sprintf("%s: commit %s changes %s: it %s: a change that weakens sessiongate's hooks passes only with a person's signature (a listed signer signs the commit, or accepts the file with `sessiongate protocol accept --sign` after adding it to protected_paths)",
		kind, shorten.SHA(commit), p, what)
	if !t.acc.canVerify() {
		msg += "; the base lists no signer (accept_signers, verify.allowed_signers)"
	}
	cr.Problems = append(cr.Problems, msg)
	return nil
}
