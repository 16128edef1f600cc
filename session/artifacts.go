package session

import (
	"context"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/nearcopy"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// Artifacts belong to the session. A gate that asks the session to create
// or update a file passes only on a file created or changed since the
// session started (committed since, staged, unstaged or untracked); never
// on a file older than the session, on a placeholder that keeps a folder
// in git (.gitkeep, an empty file), or on sessiongate's own records.

// RecordsDir is where sessiongate keeps what it writes into a worktree;
// nothing under it is ever an artifact of the protocol.
const RecordsDir = ".sessiongate/"

// DefaultRecordPath is where the starter config (and verify, when no config
// names one) puts session records: out of the protocol's folders, so a
// record never passes a gate that asks for the agent's session log.
const DefaultRecordPath = RecordsDir + "records/{session_id}.json"

// placeholderNames keep an empty folder in git; they are nobody's work.
var placeholderNames = map[string]bool{".gitkeep": true, ".keep": true, ".gitignore": true, ".placeholder": true, ".empty": true}

// isRecord reports whether a repository-relative path is one of
// sessiongate's own files: under .sessiongate/, or a session record at the
// configured session_record location.
func (c Config) isRecord(rel string) bool {
	if strings.HasPrefix(rel, RecordsDir) {
		return true
	}
	prefix, suffix, ok := strings.Cut(c.SessionRecord, "{session_id}")
	if !ok || !strings.HasPrefix(rel, prefix) || !strings.HasSuffix(rel, suffix) || len(rel) < len(prefix)+len(suffix) {
		return false
	}
	return ValidateID(strings.TrimSuffix(strings.TrimPrefix(rel, prefix), suffix)) == nil
}

// isPlaceholder reports whether a file only holds a folder's place: a
// well-known keep file, or an empty regular file.
func isPlaceholder(root, rel string) bool {
	if placeholderNames[path.Base(rel)] {
		return true
	}
	abs, ok, err := repopath.Resolve(root, rel)
	if err != nil || !ok {
		return false
	}
	st, err := os.Stat(abs)
	return err == nil && st.Mode().IsRegular() && st.Size() == 0
}

// checkFileExists passes on a matching file that is not a placeholder or a
// record; a fresh check (protocolspec.Check.Fresh) also wants it created or
// changed in this session.
func checkFileExists(ctx context.Context, env gateEnv, c protocolspec.Check) (GateStatus, string, string) {
	glob := c.Arg
	m, err := repopath.Glob(env.repo.Root(), glob)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	if len(m) == 0 {
		return StatusFail, fmt.Sprintf("no file matches %s: create it", glob), ""
	}
	var real, skipped []string
	named := namedUnder(env.phase, glob)
	for _, f := range m {
		switch {
		case len(named) > 0 && !namesPath(named, f):
			skipped = append(skipped, f+" (not named as the protocol names it: "+strings.Join(named, ", ")+")")
		case env.cfg.isRecord(f):
			skipped = append(skipped, f+" (a sessiongate record)")
		case isPlaceholder(env.repo.Root(), f):
			skipped = append(skipped, f+" (a placeholder)")
		default:
			real = append(real, f)
		}
	}
	if len(real) == 0 {
		return StatusFail, fmt.Sprintf("only %s match %s: create the real file", strings.Join(firstN(skipped, 3), ", "), glob), ""
	}
	if !c.Fresh {
		f := real[0]
		if env.phase != nil && qaPhase(env.phase, env.cfg) {
			// The session's own reports speak before older ones: an old
			// report's newer file time (a checkout, a touch) does not hide
			// this session's verdict (helper 358).
			cands := real
			if changed, err := sessionFiles(ctx, env.repo, env.sess); err == nil {
				var own []string
				for _, r := range real {
					if slices.Contains(changed, r) {
						own = append(own, r)
					}
				}
				if len(own) > 0 {
					cands = own
				}
			}
			f = newestReport(env.repo.Root(), cands)
			if why := failedVerdict(env, f); why != "" {
				return StatusFail, why, ""
			}
		}
		return StatusPass, fmt.Sprintf("%s exists", f), f
	}
	changed, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	var copies []string
	var own ownWork
	for _, f := range real {
		for _, ch := range changed {
			if ch == f || strings.HasPrefix(ch, f+"/") {
				if env.cfg.isRecord(ch) || isPlaceholder(env.repo.Root(), ch) {
					continue
				}
				if why, err := startCopy(ctx, env, ch); err != nil {
					return StatusFail, err.Error(), ""
				} else if why != "" {
					copies = append(copies, why)
					continue
				}
				if pass, err := own.take(ctx, env, glob, ch); err != nil {
					return StatusFail, err.Error(), ""
				} else if pass {
					return StatusPass, fmt.Sprintf("%s created or changed in this session", ch), ch
				}
			}
		}
	}
	if st, msg, ref, ok := own.verdict(env, glob, " created or changed in this session"); ok {
		return st, msg, ref
	}
	if len(copies) > 0 {
		return StatusFail, fmt.Sprintf("%s matches no work of this session: %s; this gate asks for a file this session wrote (%s)",
			glob, strings.Join(firstN(copies, 3), ", "), shortSHA(env.sess.StartCommit)), ""
	}
	return StatusFail, fmt.Sprintf("%s matches only files older than this session (%s): this gate asks for a file created or changed since the session started (%s)",
		glob, strings.Join(firstN(real, 3), ", "), shortSHA(env.sess.StartCommit)), ""
}

// startCopy says why a file the session created or changed is not its
// work: it repeats a file of the starting commit (an earlier session's log
// or QA report under a new name, or the same file with only white space
// moved). "" when it is new work.
func startCopy(ctx context.Context, env gateEnv, rel string) (string, error) {
	var known []string
	if env.protocol != nil {
		known = append(known, env.protocol())
	}
	of, err := env.repo.StartCopy(ctx, env.sess.StartCommit, rel, known...)
	switch {
	case errors.Is(err, nearcopy.ErrTooLarge):
		// Not compared, so not this session's work by this check.
		return fmt.Sprintf("%s (not judged: %v)", rel, err), nil
	case err != nil:
		return "", err
	case of == "":
		return "", nil
	case of == rel:
		return rel + " (only white space or markdown comments changed)", nil
	}
	return fmt.Sprintf("%s (a copy of %s as it was at the start, ids, dates and numbers aside)", rel, of), nil
}

// checkChanged passes on a file matching glob that changed since the
// session started and still exists, sessiongate's records and placeholders
// left out. judge, when set, says why a file is not the session's work
// (listedJudge); "" when it is.
func checkChanged(ctx context.Context, env gateEnv, glob string, judge func(string) (string, error)) (GateStatus, string, string) {
	if _, err := repopath.Clean(glob); err != nil {
		return StatusFail, err.Error(), ""
	}
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	var skipped, judged []string
	var own ownWork
	named := namedUnder(env.phase, glob)
	for _, f := range repopath.Filter(files, glob) {
		switch {
		case len(named) > 0 && !namesPath(named, f):
			skipped = append(skipped, f+" (not named as the protocol names it: "+strings.Join(named, ", ")+")")
		case env.cfg.isRecord(f):
			skipped = append(skipped, f+" (a sessiongate record)")
		case isPlaceholder(env.repo.Root(), f):
			skipped = append(skipped, f+" (a placeholder)")
		default:
			if _, ok, err := repopath.Resolve(env.repo.Root(), f); err != nil || !ok {
				skipped = append(skipped, f+" (deleted)")
				continue
			}
			if why, err := startCopy(ctx, env, f); err != nil {
				return StatusFail, err.Error(), ""
			} else if why != "" {
				skipped = append(skipped, why)
				continue
			}
			// A file as a remote branch holds it came in with a rebase or
			// pull: a person's README edit is not the docs the session
			// owed (round 56, helper 334's F3; the unchanged check reads
			// it the same way).
			if up := upstreamVersion(ctx, env, env.sess.StartCommit); up != nil {
				if theirs, err := up(f); err == nil && theirs {
					skipped = append(skipped, f+" (as the upstream has it: brought in, not written in the session)")
					continue
				}
			}
			if judge != nil {
				if why, err := judge(f); err != nil {
					return StatusFail, err.Error(), ""
				} else if why != "" {
					judged = append(judged, why)
					continue
				}
			}
			if pass, err := own.take(ctx, env, glob, f); err != nil {
				return StatusFail, err.Error(), ""
			} else if pass {
				return StatusPass, fmt.Sprintf("%s changed", f), f
			}
		}
	}
	if st, msg, ref, ok := own.verdict(env, glob, " changed"); ok {
		return st, msg, ref
	}
	if len(judged) > 0 {
		return StatusFail, fmt.Sprintf("%s holds no file of this session's own context: %s; the protocol sends the session's context there, so write it in a file of its own (not a link, a copy or a template)",
			glob, strings.Join(firstN(append(judged, skipped...), 3), "; ")), ""
	}
	if len(skipped) > 0 {
		return StatusFail, fmt.Sprintf("%s not changed since the session started (%s); %s do not count", glob, shortSHA(env.sess.StartCommit), strings.Join(firstN(skipped, 3), ", ")), ""
	}
	return StatusFail, fmt.Sprintf("%s not changed since the session started (%s)", glob, shortSHA(env.sess.StartCommit)), ""
}

func firstN(l []string, n int) []string {
	if len(l) > n {
		return append(l[:n:n], "...")
	}
	return l
}

// namedUnder returns the paths the phase's requirements name in the folder
// of a check's glob: a built-in `.agents/sessions/*` check of a phase that
// says "create .agents/sessions/YYYY-MM-DD-session-NN.md" wants that name,
// not notes.txt in the same folder. nil when the phase names none there
// (the glob alone decides).
func namedUnder(p *protocolspec.Phase, glob string) []string {
	if p == nil {
		return nil
	}
	dir := path.Dir(glob)
	var out []string
	for _, r := range p.Requirements {
		for _, g := range r.NamedPaths() {
			if strings.Contains(g, "/") && path.Dir(g) == dir && g != glob && repopath.Match(glob, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// ownWork holds what a file gate found among the files the session wrote
// that does not pass the gate alone: session logs that contradict the
// session, and a QA phase's reports, of which the newest speaks.
type ownWork struct {
	contradicts, qa []string
}

// take judges f, a file the session wrote that matches glob: pass when it
// meets the gate alone; else it is kept for verdict.
func (o *ownWork) take(ctx context.Context, env gateEnv, glob, f string) (pass bool, err error) {
	why, err := logContradiction(ctx, env, glob, f)
	switch {
	case err != nil:
		return false, err
	case why != "":
		o.contradicts = append(o.contradicts, why)
		return false, nil
	case env.phase != nil && qaPhase(env.phase, env.cfg):
		o.qa = append(o.qa, f)
		return false, nil
	}
	return true, nil
}

// verdict is the gate's outcome from the files take kept (how ends the
// pass message); ok false when they decide nothing.
func (o *ownWork) verdict(env gateEnv, glob, how string) (st GateStatus, msg, ref string, ok bool) {
	if len(o.qa) > 0 {
		f := newestReport(env.repo.Root(), o.qa)
		if why := failedVerdict(env, f); why != "" {
			return StatusFail, why, "", true
		}
		return StatusPass, f + how, f, true
	}
	if len(o.contradicts) > 0 {
		return StatusFail, contradictsMsg(glob, o.contradicts), "", true
	}
	return "", "", "", false
}
