package session

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/commitcite"
	"github.com/sessiongate/sessiongate/committype"
	"github.com/sessiongate/sessiongate/mdtext"
	"github.com/sessiongate/sessiongate/ownwords"
	"github.com/sessiongate/sessiongate/placeholder"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// CodeReviewFlag is what no sound rule decides but a reviewer should read
// (issue 25 item 4): a handoff made from the template and `git log` with
// next to no words of the agent's own, a conventional commit whose type
// the changed paths contradict. Measured on a real team's history, a rule
// that blocked either would block honest work (committype, ownwords), so
// the end records it as a LOW violation: `session show` and the dashboard
// show it, the session is not called clean, and nothing is blocked
// (verify does not fail on it: gatingViolation).
const CodeReviewFlag = "REVIEW_FLAG"

// reviewFlags judges the session's commits and the files its protocol asks
// it to write from a template, once, at the end. A flag is a finding, not
// a failure: an error reading the repository drops the flags, never the end.
func (e *Engine) reviewFlags(ctx context.Context, s *Session, spec *protocolspec.Spec) []*Violation {
	if s.StartCommit == "" || e.OpenRepo == nil {
		return nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil
	}
	commits, err := commitSubjectsAtStart(ctx, repo, s.StartCommit, e.remotesAtStartOf(s.ID)(ctx))
	if err != nil {
		return nil
	}
	var subjects []string
	var own []CommitSubject
	for _, c := range commits {
		if sessionCommit(c, s.ID) {
			own = append(own, c)
			subjects = append(subjects, c.Subject)
		}
	}
	var named []string // the files the protocol asks a session to write
	var templated []string
	convPhase := ""
	for _, p := range spec.Phases {
		for _, c := range p.Checks {
			switch c.Kind {
			case protocolspec.CheckNoPlaceholders:
				templated = append(templated, c.Arg)
				named = append(named, c.Arg)
			case protocolspec.CheckFileExists, protocolspec.CheckChangedSinceStart, protocolspec.CheckHasSection, protocolspec.CheckContentHash:
				named = append(named, c.Arg)
			case protocolspec.CheckCommitMessage:
				if c.Arg == "conventional" && convPhase == "" {
					convPhase = p.ID
				}
			}
		}
	}
	flag := func(phase, req, msg string) *Violation {
		return &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: phase, Requirement: req, Severity: SeverityLow,
			Code: CodeReviewFlag, Window: WindowSession, CreatedAt: e.now(), Message: msg}
	}
	var out []*Violation
	// The type is a claim only where the protocol asks for conventional
	// commits. The protocol's own files (session log, handoff) ride in any
	// commit and say nothing of its type.
	if convPhase != "" {
		for _, c := range own {
			paths, err := repo.TreeDiff(ctx, c.SHA+"^", c.SHA)
			if err != nil {
				continue
			}
			var judged []string
			for _, p := range paths {
				if !matchAny(named, p) {
					judged = append(judged, p)
				}
			}
			var comments func(string) bool
			if cp, ok := repo.(commitPatcher); ok {
				var only map[string]bool
				comments = func(p string) bool {
					if only == nil {
						patch, err := cp.CommitPatch(ctx, c.SHA, judged)
						if err != nil {
							return false
						}
						only = committype.CommentOnly(patch)
					}
					return only[p]
				}
			}
			if why := committype.Mismatch(c.Subject, judged, comments); why != "" {
				out = append(out, flag(convPhase, "conventional commits", fmt.Sprintf("commit %s %q: %s; the type says what a commit does, and a reviewer reads whether this one does it (a flag, not a block)",
					shortSHA(c.SHA), truncate(c.Subject, 80), why)))
			}
		}
	}
	out = append(out, gitlinkFlags(ctx, repo, s, flag)...)
	if len(templated) == 0 {
		return out
	}
	files, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return out
	}
	var known ownwords.Known
	for _, f := range existing(repo.Root(), files) {
		if !matchAny(templated, f) {
			continue
		}
		abs, ok, err := repopath.Resolve(repo.Root(), f)
		if err != nil || !ok {
			continue
		}
		body, err := placeholder.ReadHead(abs, placeholder.MaxScan)
		if err != nil {
			continue
		}
		if known == nil {
			known = e.sourceWords(ctx, s, spec, subjects)
		}
		k := known
		var earlier []byte
		if ok, _ := repo.ExistsAt(ctx, s.StartCommit, f); ok {
			// A file each session updates: its earlier text is no one's
			// words of this session.
			if old, err := repo.ReadAt(ctx, s.StartCommit, f); err == nil {
				earlier = old
				k = ownwords.NewKnown(string(old))
				for w := range known {
					k[w] = true
				}
			}
		}
		out = append(out, citeFlags(ctx, repo, f, string(body), string(earlier), own, flag)...)
		out = append(out, e.countFlags(ctx, s, f, string(body), string(earlier), flag)...)
		if n := len(k.Own(mdtext.ShownIn(f, string(body)))); n < ownwords.Few {
			out = append(out, flag("", f, fmt.Sprintf("%s holds %d word(s) of its own beyond the protocol's template, the session's commit subjects and its objective: made from them (sed and git log?) it hands nothing off that a reader could not get from git; a reviewer reads it (a flag, not a block)", f, n)))
		}
	}
	return out
}

// citeFlags: a file the template makes that cites a commit id the
// repository does not hold ("committed abc1234", invented), or claims as
// committed one that is no commit of the session, hands off work git does
// not show (commitcite.Judge). A flag, not a block: an id may be another
// repository's, or a commit amended since the file was written; a reader
// decides.
func citeFlags(ctx context.Context, repo Repo, f, body, earlier string, own []CommitSubject, flag func(phase, req, msg string) *Violation) []*Violation {
	cr, ok := repo.(commitcite.Repo)
	if !ok {
		return nil
	}
	mine := func(full string) bool {
		return slices.ContainsFunc(own, func(o CommitSubject) bool { return o.SHA == full })
	}
	var out []*Violation
	for _, c := range commitcite.Judge(ctx, cr, body, earlier, mine) {
		switch c.Why {
		case commitcite.NoCommit:
			out = append(out, flag("", f, fmt.Sprintf("%s:%d cites commit %s, which is no commit of this repository: an id made up, or of another repository; a reviewer reads it (a flag, not a block)", f, c.Line, c.ID)))
		case commitcite.NotOwn:
			out = append(out, flag("", f, fmt.Sprintf("%s:%d says %s was committed, but it is not one of this session's commits (it is %s, older or another session's): work claimed that git shows elsewhere; a reviewer reads it (a flag, not a block)", f, c.Line, c.ID, shortSHA(c.Full))))
		}
	}
	return out
}

// Gitlink is a submodule commit a session's range adds or moves.
type Gitlink struct {
	Path   string
	Commit string
	URL    string // from HEAD's .gitmodules; "" when none names the path
	// Present: the submodule's repository here holds the commit.
	Present bool
	// Published: a remote-tracking ref of the submodule's repository here
	// holds it (as of its last fetch): the remote served it then.
	Published bool
}

// gitlinkLister gives the submodule commits a range adds or moves
// (gitrepo.Repo).
type gitlinkLister interface {
	ChangedGitlinks(ctx context.Context, start string) ([]Gitlink, error)
}

// gitlinkFlags: a gitlink to a commit no clone can fetch hides code from
// CI. Whether the submodule's URL serves it takes the network, so it is a
// finding, not a block: no .gitmodules URL, or no remote-tracking ref of
// the submodule's repository here holding the commit.
func gitlinkFlags(ctx context.Context, repo Repo, s *Session, flag func(phase, req, msg string) *Violation) []*Violation {
	gl, ok := repo.(gitlinkLister)
	if !ok {
		return nil
	}
	links, err := gl.ChangedGitlinks(ctx, s.StartCommit)
	if err != nil {
		return nil
	}
	var out []*Violation
	for _, l := range links {
		switch {
		case l.URL == "":
			out = append(out, flag("", l.Path, fmt.Sprintf("submodule %s points at %s and no .gitmodules entry names its URL: no clone can fetch that commit; a reviewer reads it (a flag, not a block)", l.Path, shortSHA(l.Commit))))
		case !l.Published:
			where := "is not in the submodule's repository here"
			if l.Present {
				where = "is here but on none of the submodule's remote-tracking refs (made here, not pushed, or not fetched)"
			}
			out = append(out, flag("", l.Path, fmt.Sprintf("submodule %s points at %s, which %s: whether %s serves it was not checked (offline); push it, or a reviewer confirms a clone can fetch it (a flag, not a block)",
				l.Path, shortSHA(l.Commit), where, l.URL)))
		}
	}
	return out
}

// commitPatcher gives a commit's -U0 patch (gitrepo.Repo): whether a
// `docs:` commit changed only comments. A Repo without it judges paths.
type commitPatcher interface {
	CommitPatch(ctx context.Context, c string, paths []string) (string, error)
}

// sourceWords are the words a template-made file may be made of without
// the agent writing any: the protocol's text (its template in it), the
// session's commit subjects and objective.
func (e *Engine) sourceWords(ctx context.Context, s *Session, spec *protocolspec.Spec, subjects []string) ownwords.Known {
	k := ownwords.NewKnown(strings.Join(subjects, "\n"), s.Objective)
	if p, err := e.Store.GetProtocol(ctx, s.ProtocolSHA); err == nil {
		k.Add(string(p.Content))
	} else if js, err := json.Marshal(spec); err == nil {
		k.Add(string(js)) // its requirements and placeholders at least
	}
	return k
}
