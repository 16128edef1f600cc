package session

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/sessiongate/sessiongate/docmention"
	"github.com/sessiongate/sessiongate/goimporters"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// A check may bind only when a condition holds (when=docs_affected,
// when_changed="GLOBS"). sessiongate checks the condition itself, from the
// session's diff and the tracked docs: where it does not hold, the check
// is not applicable (SKIPPED, CONDITION_NOT_MET, clean), never failed, and
// nothing the agent says decides it. The starter protocol's docs phase
// binds this way: an honest code-only session owes no docs update, one that
// changes a flag the README names does.

// conditionMark starts the message of a check whose condition did not hold.
const conditionMark = "not applicable (condition: "

// docsScanCap bounds the files whose diffs are read for docs_affected;
// a larger change is taken to affect the docs (the check binds).
const docsScanCap = 200

// docBodyCap skips a tracked .md larger than this (a generated dump, not
// prose anyone keeps up to date by hand).
const docBodyCap = 1 << 20

// CheckCondition says, for people, when a check binds ("" when always).
func CheckCondition(c protocolspec.Check) string {
	var parts []string
	if c.When == docmention.Condition {
		docs := "a tracked doc"
		if c.Kind == protocolspec.CheckChangedSinceStart {
			docs = "a tracked doc matching " + c.Arg
		}
		parts = append(parts, "the session changed a flag, environment variable, exported identifier or file "+docs+" mentions (when=docs_affected)")
	}
	if c.WhenChanged != "" {
		parts = append(parts, fmt.Sprintf("the session changed a file matching %s (when_changed)", c.WhenChanged))
	}
	return strings.Join(parts, " and ")
}

// checkCondition decides a check's condition for the session: holds, and
// what was found either way.
func checkCondition(ctx context.Context, env gateEnv, c protocolspec.Check) (holds bool, why string, err error) {
	holds, why, _, err = checkConditionHits(ctx, env, c)
	return holds, why, err
}

// checkConditionHits is checkCondition with the documented names it found
// (when=docs_affected): the docs a changed_since_start check then asks for.
func checkConditionHits(ctx context.Context, env gateEnv, c protocolspec.Check) (holds bool, why string, hits []docmention.Hit, err error) {
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return false, "", nil, fmt.Errorf("condition: list the session's changed files: %w", err)
	}
	if c.WhenChanged != "" {
		var hit string
		for _, g := range strings.Split(c.WhenChanged, ",") {
			if m := repopath.Filter(files, strings.TrimSpace(g)); len(m) > 0 {
				hit = m[0]
				break
			}
		}
		if hit == "" {
			return false, fmt.Sprintf("no changed file matches %s", c.WhenChanged), nil, nil
		}
		why = fmt.Sprintf("%s changed", hit)
		if c.When == "" {
			return true, why, nil, nil
		}
	}
	if c.When != docmention.Condition {
		return false, "", nil, fmt.Errorf("condition: unknown when=%q", c.When)
	}
	// Only docs the check itself could be satisfied by count: a README.rst
	// cannot answer changed_since_start "*.md", so it does not make it bind.
	glob := ""
	if c.Kind == protocolspec.CheckChangedSinceStart {
		glob = c.Arg
	}
	hit, hits, holds, err := docsAffected(ctx, env, files, glob)
	if err != nil || !holds {
		return false, hit, nil, err
	}
	if why != "" {
		hit = why + "; " + hit
	}
	return true, hit, hits, nil
}

// docsAffected reads the session's change and the docs tracked at its
// start: holds when the change touched a name a doc mentions; why names
// it, or says what was looked at when none was.
func docsAffected(ctx context.Context, env gateEnv, files []string, glob string) (why string, hits []docmention.Hit, holds bool, err error) {
	var changes []docmention.Change
	scanned := 0
	for _, f := range files {
		if docmention.DocFormat(f) || docmention.IgnoredPath(f) || env.cfg.isRecord(f) {
			continue
		}
		if scanned++; scanned > docsScanCap {
			return fmt.Sprintf("the session changed more than %d files that are not docs or tests: taken to affect the docs", docsScanCap), nil, true, nil
		}
		abs, ok, rerr := repopath.Resolve(env.repo.Root(), f)
		ch := docmention.Change{Path: f, Deleted: rerr == nil && !ok}
		if env.sess.StartCommit != "" || !ch.Deleted {
			if ch.Added, ch.Removed, _, err = env.repo.DiffLines(ctx, env.sess.StartCommit, f); err != nil {
				return "", nil, false, fmt.Errorf("condition docs_affected: %w", err)
			}
		}
		if ok && strings.HasSuffix(f, ".go") {
			// Its constants name flags (flag.Bool(verboseFlag, ...)).
			if st, err := os.Stat(abs); err == nil && st.Mode().IsRegular() && st.Size() <= docBodyCap {
				if b, err := os.ReadFile(abs); err == nil {
					ch.Body = string(b)
				}
			}
		}
		wholeGoChange(ctx, env, &ch)
		changes = append(changes, ch)
	}
	if len(changes) == 0 {
		return "the session changed no file but docs and tests", nil, false, nil
	}
	docs, err := trackedDocs(ctx, env, files, glob)
	if err != nil {
		return "", nil, false, err
	}
	unchanged := unchangedGoFiles(env, changes, files)
	if dirs := docmention.ChangedValueDirs(changes, unchanged); len(dirs) > 0 {
		addImporters(ctx, env, dirs, unchanged, files)
	}
	importPath := func(dir string) string { return strings.Trim(goimporters.ImportPath(env.repo.Root(), dir), `"`) }
	if hits = docmention.FindTouched(docmention.TouchedIn(changes, unchanged, importPath), docs); len(hits) > 0 {
		return hits[0].String(), hits, true, nil
	}
	in := "tracked doc(s)"
	if glob != "" {
		in = "tracked doc(s) matching " + glob
	}
	return fmt.Sprintf("no flag, environment variable, exported identifier or file that %d changed file(s) touch is mentioned in the %d %s", len(changes), len(docs), in), nil, false, nil
}

// trackedDocs are the .md files tracked at the session's start that
// describe the project (docmention.IsDoc), as the start commit holds them:
// a mention the agent deletes, or hides from git (skip-worktree), still
// counts. An unchanged doc is read from the work tree (no git process);
// one the session changed or git hides is read at the start.
func trackedDocs(ctx context.Context, env gateEnv, changed []string, glob string) ([]docmention.Doc, error) {
	tl, ok := env.repo.(TreeLister)
	if !ok || env.sess.StartCommit == "" {
		return nil, nil // nothing tracked before the session: nothing documented
	}
	paths, err := tl.TreeFiles(ctx, env.sess.StartCommit)
	if err != nil {
		return nil, fmt.Errorf("condition docs_affected: list the tracked docs: %w", err)
	}
	atStart := map[string]bool{}
	for _, f := range changed {
		atStart[f] = true
	}
	hidden, err := env.repo.HiddenFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("condition docs_affected: list hidden files: %w", err)
	}
	for f := range hidden {
		atStart[f] = true
	}
	var docs []docmention.Doc
	for _, p := range paths {
		if !docmention.IsDoc(p) || env.cfg.isRecord(p) || glob != "" && !repopath.Match(glob, p) {
			continue
		}
		if atStart[p] {
			b, err := env.repo.ReadAt(ctx, env.sess.StartCommit, p)
			if err != nil {
				return nil, fmt.Errorf("condition docs_affected: read %s at the session's start: %w", p, err)
			}
			if len(b) <= docBodyCap {
				docs = append(docs, docmention.Doc{Path: p, Body: b})
			}
			continue
		}
		abs, ok, err := repopath.Resolve(env.repo.Root(), p)
		if err != nil || !ok {
			continue
		}
		if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() || st.Size() > docBodyCap {
			continue
		}
		b, err := os.ReadFile(abs)
		if err != nil {
			return nil, fmt.Errorf("condition docs_affected: read %s: %w", p, err)
		}
		docs = append(docs, docmention.Doc{Path: p, Body: b})
	}
	return docs, nil
}

func pathExt(p string) string {
	if i := strings.LastIndexByte(p, '.'); i > strings.LastIndexByte(p, '/') {
		return p[i:]
	}
	return ""
}

// conditionalCheck runs check c under its condition: a condition that
// does not hold makes it not applicable; one that holds is named in a
// failure's message, so the agent sees why the check binds.
func conditionalCheck(ctx context.Context, env gateEnv, c protocolspec.Check, run func() (CheckResult, string)) (CheckResult, string) {
	holds, why, hits, err := checkConditionHits(ctx, env, c)
	if err != nil {
		return CheckResult{Kind: c.Kind, Arg: c.Arg, Status: StatusFail, Message: err.Error()}, ""
	}
	if !holds {
		na := CheckResult{Kind: c.Kind, Arg: c.Arg, Status: StatusSkipped, Message: conditionMark + conditionName(c) + "): " + truncate(why, 300)}
		if c.Kind == protocolspec.CheckCommand {
			return na, "" // a command is not run where it does not bind
		}
		// A cheap check is run anyway: work the session did though it was
		// not owed (the README updated beside a new file) is a pass, shown
		// so; only a failure becomes not applicable.
		if cr, out := run(); cr.Status == StatusPass {
			return cr, out
		}
		return na, ""
	}
	cr, out := run()
	if cr.Status == StatusFail && c.Kind == protocolspec.CheckChangedSinceStart && len(hits) > 0 {
		// A program removed with the docs that named it: the deleted docs
		// are the update (a deleted doc answers nothing else).
		if msg, ok := allDeletedWithDocs(ctx, env, hits); ok {
			cr.Status, cr.Message = StatusPass, msg
			return cr, out
		}
	}
	if cr.Status == StatusPass && c.Kind == protocolspec.CheckChangedSinceStart && len(hits) > 0 {
		// Any changed doc is not enough: the one that names what changed.
		cr.Status, cr.Message, cr.Evidence = docsAddressed(ctx, env, c.Arg, hits)
		return cr, out
	}
	if cr.Status == StatusFail {
		cr.Message += " (it binds: " + truncate(why, 300) + ")"
	}
	return cr, out
}

func conditionName(c protocolspec.Check) string {
	var n []string
	if c.When != "" {
		n = append(n, "when="+c.When)
	}
	if c.WhenChanged != "" {
		n = append(n, "when_changed="+c.WhenChanged)
	}
	return strings.Join(n, " ")
}

// conditionsUnmet reports whether every check of a skipped gate was
// skipped on a condition that did not hold.
func conditionsUnmet(cs []CheckResult) bool {
	for _, c := range cs {
		if c.Status != StatusSkipped || !strings.HasPrefix(c.Message, conditionMark) {
			return false
		}
	}
	return len(cs) > 0
}

// conditionSuffix names a check's condition after its description.
func conditionSuffix(c protocolspec.Check) string {
	if n := conditionName(c); n != "" {
		return ", only when " + n
	}
	return ""
}
