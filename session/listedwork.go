package session

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/sessiongate/sessiongate/inferredcheck"
	"github.com/sessiongate/sessiongate/internal/nearcopy"
	"github.com/sessiongate/sessiongate/internal/textfold"
	"github.com/sessiongate/sessiongate/mdtext"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// A file a "... MUST go to:" list names (protocolspec.RuleListedFile, the
// 2025-12-22 protocol's `.agents/handoffs/{branch}/{session}.md`) holds the
// session's context, so it is judged as the session's written work, as
// the handoff and session log are: changed is not enough (a one-line
// `echo x > .agents/handoffs/feat-x/s.md` met it, round 63's re-read).
// What it shares with the session log or handoff written in the same
// session is not held against it: the protocol sends the same context to
// each place, and both are this session's words.

// listedMinWords is the fewest words of prose a listed file holds outside
// headings, code blocks, comments and the protocol's own lines: a
// sentence saying what was done. A word or two, or a file of headings,
// holds none of the context the protocol sends there; more than a
// sentence is not asked (the handoff's own check asks no length either).
const listedMinWords = 5

// listedCopyCandidates caps the earlier files read for the near-copy test.
const listedCopyCandidates = 500

// listedJudge returns checkChanged's judge for a listed file: why the
// file f is not the session's written work, "" when it is.
func listedJudge(ctx context.Context, env gateEnv) func(f string) (string, error) {
	protText := ""
	if env.protocol != nil {
		protText = env.protocol()
	}
	prot := nearcopy.NewSource(protText)
	return func(f string) (string, error) {
		root := env.repo.Root()
		if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err == nil && st.Mode()&os.ModeSymlink != 0 {
			to, _ := os.Readlink(filepath.Join(root, filepath.FromSlash(f)))
			return fmt.Sprintf("%s (a symbolic link to %s: a link is no file of this session's words; write the file itself)", f, to), nil
		}
		body, err := readWorkFile(root, f)
		if err != nil {
			return fmt.Sprintf("%s (not read: %v)", f, err), nil
		}
		text := string(textfold.Decode(body))
		// An earlier session's file (one the start holds) is judged on
		// what this session added to it: `echo x >> session-01.md` kept
		// the earlier session's words and met the rest.
		n, where := len(proseWords(f, prot.Strip(text))), ""
		if _, ok, err := env.repo.ReadCommitted(ctx, env.sess.StartCommit, f); err == nil && ok {
			added, removed, _, err := env.repo.DiffLines(ctx, env.sess.StartCommit, f)
			if err != nil {
				return "", fmt.Errorf("read what this session added to %s: %w", f, err)
			}
			// Words the changed lines held before are the earlier
			// session's: `sed s/planned/designed/` adds one word.
			n, where = newWords(f, prot, added, removed), " added to a file an earlier session wrote (the start holds it)"
		}
		if n < listedMinWords {
			return fmt.Sprintf("%s (%d words of prose%s besides headings, code blocks and the protocol's own lines, under the %d of a handoff: say what this session did, what it decided and what comes next)", f, n, where, listedMinWords), nil
		}
		if why := listedPlaceholders(env, f); why != "" {
			return f + " (" + why + ")", nil
		}
		of, err := listedCopyOf(ctx, env, prot, f, text)
		if err != nil {
			return "", err
		}
		if of != "" {
			return fmt.Sprintf("%s (a near copy of %s as it was at the start, ids, dates and numbers aside: an earlier file is not this session's context; write this session's own)", f, of), nil
		}
		one := func() ([]string, error) { return []string{f}, nil }
		c := protocolspec.Check{Kind: protocolspec.CheckNoPlaceholders, Arg: f}
		files := func() ([]string, error) { return sessionFiles(ctx, env.repo, env.sess) }
		if r := namesTheWork(ctx, env, c, files, one, inferredcheck.Result{Status: inferredcheck.Pass}); r.Status == inferredcheck.Fail {
			return f + " (" + strings.TrimPrefix(r.Message, f+" ") + ")", nil
		}
		return "", nil
	}
}

// newWords counts the prose words of the added lines that the removed
// lines did not hold (each word as often as it was added beyond it was
// removed).
func newWords(rel string, prot *nearcopy.Source, added, removed []string) int {
	had := map[string]int{}
	for _, w := range proseWords(rel, prot.Strip(string(textfold.Decode([]byte(strings.Join(removed, "\n")))))) {
		had[strings.ToLower(w)]++
	}
	n := 0
	for _, w := range proseWords(rel, prot.Strip(string(textfold.Decode([]byte(strings.Join(added, "\n")))))) {
		if w = strings.ToLower(w); had[w] > 0 {
			had[w]--
			continue
		}
		n++
	}
	return n
}

// proseWords lists the words (letter runs of two or more) a reader sees
// in rel's text outside headings, fenced blocks and comments.
func proseWords(rel, text string) []string {
	var out []string
	for _, l := range strings.Split(nearcopy.Prose(mdtext.ShownIn(rel, text)), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") || strings.Trim(t, "=-*_ ") == "" {
			continue // a heading, a setext underline or a rule
		}
		for _, w := range strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len([]rune(w)) >= 2 {
				out = append(out, w)
			}
		}
	}
	return out
}

// listedPlaceholders: f still holds a placeholder of a template the phase
// fills (its no_placeholders checks' placeholders; {name} ones when it
// has none), or a section of only a filler (inferredcheck.NoPlaceholders).
// The template copied unfilled to the listed place is no context.
func listedPlaceholders(env gateEnv, f string) string {
	var lit []string
	if env.phase != nil {
		for _, c := range env.phase.Checks {
			if c.Kind == protocolspec.CheckNoPlaceholders {
				lit = append(lit, c.Placeholders...)
			}
		}
	}
	c := protocolspec.Check{Kind: protocolspec.CheckNoPlaceholders, Arg: f, Placeholders: lit}
	r := inferredcheck.NoPlaceholders(env.repo.Root(), c, func() ([]string, error) { return []string{f}, nil })
	if r.Status != inferredcheck.Fail {
		return ""
	}
	// "F:6 still holds ...": said of f in its parentheses as "line 6 ...".
	return "line " + strings.TrimPrefix(r.Message, f+":")
}

// listedCopyOf names a file of the start commit that f's text nearly
// copies, among the folders the phase's requirements name (every branch's
// handoffs, the session logs, HANDOFF.md's folder): checkChanged's
// startCopy compares only f's own folder, and an earlier branch's handoff
// with its ids changed sits in another. "" when none.
func listedCopyOf(ctx context.Context, env gateEnv, prot *nearcopy.Source, f, text string) (string, error) {
	if env.phase == nil || env.sess.StartCommit == "" {
		return "", nil
	}
	var globs []string
	for _, r := range env.phase.Requirements {
		for _, p := range r.NamedPaths() {
			if i := strings.IndexAny(p, "{*?["); i >= 0 {
				p = p[:i]
			}
			if d := path.Dir(strings.TrimSuffix(p, "/") + "/x"); strings.Contains(p, "/") && d != "." {
				if g := d + "/**"; !slices.Contains(globs, g) {
					globs = append(globs, g)
				}
			}
		}
	}
	if len(globs) == 0 {
		return "", nil
	}
	names, err := env.repo.FilesAt(ctx, env.sess.StartCommit, globs)
	if err != nil {
		return "", fmt.Errorf("list the start's files to compare %s with: %w", f, err)
	}
	mine := nearcopy.New(prot.Strip(text))
	for i, n := range names {
		if i >= listedCopyCandidates {
			break
		}
		if n == f || !strings.HasSuffix(strings.ToLower(n), ".md") {
			continue // f itself: startCopy judges an edit of it
		}
		b, ok, err := env.repo.ReadCommitted(ctx, env.sess.StartCommit, n)
		if err != nil {
			return "", fmt.Errorf("read %s at the start to compare %s with: %w", n, f, err)
		}
		if ok && len(b) <= 1<<20 && mine.NearCopyOf(prot.Strip(string(textfold.Decode(b)))) {
			return n, nil
		}
	}
	return "", nil
}

// listedFileCheck reports whether c is a listed file's check.
func listedFileCheck(c protocolspec.Check) bool {
	return c.Inferred != nil && c.Inferred.Rule == protocolspec.RuleListedFile
}
