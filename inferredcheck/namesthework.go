package inferredcheck

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/sessiongate/sessiongate/mdtext"
	"github.com/sessiongate/sessiongate/placeholder"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// A handoff filled from its template with prose that names nothing the
// session did ("Improved things somewhat and tidied a few bits along the
// way.") passed no_placeholders: every section said something, so it was
// no filler (lazy passes 31-33 left it open). A handoff is for the next
// session, and one that names no file, no part of the objective and no
// word of a commit tells it nothing. NamesTheWork asks for one such
// referent, matched as a word or its inflection ("greeting" names greet), which any
// honest handoff holds: the team's real logs name their files, issue
// numbers and objectives many times over. A session that changed no file
// but the handoff needs name nothing, but must not claim the objective's
// work as made (ClaimedNoWork).

// Work is what a session did that a handoff can name.
type Work struct {
	Files     []string // the session's changed files
	Subjects  []string // its commits' subjects
	Objective string
	// Cosmetic are changed files whose change since the start is only
	// comments and blank lines: no work on what the code does.
	Cosmetic []string
}

// genericNames are file stems and folders that name no particular work
// in prose ("the main branch", "tests pass"); README, Makefile or
// CHANGELOG name what they are.
var genericNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"main": true, "index": true, "init": true, "__init__": true, "test": true, "tests": true, "spec": true,
		"utils": true, "util": true, "setup": true, "config": true, "handoff": true, "session": true, "sessions": true,
		"notes": true, "docs": true, "lib": true, "src": true, "pkg": true, "cmd": true, "app": true, "package": true,
	}
})

// stopWords are words of an objective or commit subject that name no
// particular work: English glue, and the verbs and nouns of any change.
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`this that with from into onto have been were will would should could must also just only then than when what
		which while where there their they them these those some more most such each other about after before again over under very much many
		make made makes making update updated updates updating change changed changes changing work worked working session sessions
		code file files thing things stuff improve improved improves improvement tidy tidied clean cleaned cleanup fix fixed fixes fixing
		feat chore docs test tests testing added adds adding remove removed removes refactor refactored minor small various misc along around
		better done complete completed task tasks handoff notes note next step steps implement implemented support supported first last
		does doing like need needs needed used uses using well good into onto your ours here`) {
		m[w] = true
	}
	return m
})

// words splits text into lowercase words of letters, digits and '_'.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}

// referents are the session's nameable parts: each changed file's path,
// and its stem and folder when specific, and the specific words of its
// objective and commit subjects; own reports a file of the check itself
// (the handoff and its siblings), which names nothing else.
func (w Work) referents(own func(string) bool) (files, terms []string) {
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	for _, f := range w.Files {
		if own(f) {
			continue
		}
		f = strings.ToLower(f)
		add(&files, f)
		base := path.Base(f)
		stem, _, _ := strings.Cut(base, ".")
		for _, s := range []string{stem, path.Base(path.Dir(f))} {
			if len(s) >= 4 && !genericNames()[s] && strings.ContainsFunc(s, unicode.IsLetter) {
				add(&terms, s)
			}
		}
	}
	for _, s := range append([]string{w.Objective}, w.Subjects...) {
		for _, t := range words(s) {
			if len(t) >= 4 && !stopWords()[t] && strings.ContainsFunc(t, unicode.IsLetter) {
				add(&terms, t)
			}
		}
	}
	return files, terms
}

// NamesTheWork passes when each file this session created or changed that
// matches the glob names something the session did (Work): a file it
// changed, or a word of its objective or commits. No such file, or
// nothing to name: nothing to check.
func NamesTheWork(root string, c protocolspec.Check, files Lister, w Work) Result {
	matched, done := matching(root, c, files)
	if done != nil {
		return *done
	}
	own := func(f string) bool { return repopath.Match(c.Arg, f) }
	refFiles, terms := w.referents(own)
	for _, f := range matched {
		abs, ok, err := repopath.Resolve(root, f)
		if err != nil || !ok {
			continue
		}
		sc, err := placeholder.ReadScanned(abs)
		if err != nil {
			return fail(fmt.Sprintf("read %s: %v", f, err))
		}
		shown := mdtext.ShownIn(f, sc.Text)
		if p := ClaimedUnchanged(root, shown, w.Files, own); p != "" {
			return fail(fmt.Sprintf("%s reports as done work on %s, which this session did not change: say what was done and where, or that it was not (no change was needed, it was only read)", f, p))
		}
		if onlyNotes(c.Arg, w.Files, func(f string) bool { return own(f) || slices.Contains(w.Cosmetic, f) }) {
			if c := ClaimedNoWork(shown, terms, w.Objective); c != "" {
				// A fix whose work was a wrong comment is honest: say which
				// file was read as comments only and how to say so (helper
				// 349: "Fixed the usage line of scripts/greet.sh" failed
				// with only "do the work" for a way out).
				var comments []string
				for _, x := range w.Files {
					if slices.Contains(w.Cosmetic, x) {
						comments = append(comments, x)
					}
				}
				if len(comments) > 0 {
					return fail(fmt.Sprintf("%s reports work as done (%q), but this session changed no file besides it (or only comments): %s changed only in comments, under a feat, fix or perf commit; "+
						"if correcting the comment was the work, say so (\"Fixed the comment in %s\"), otherwise do the work and commit it, or say that it was not done", f, c, sample(comments), comments[0]))
				}
				return fail(fmt.Sprintf("%s reports work as done (%q), but this session changed no file besides it (or only comments): do the work and commit it, or say that it was not done (no change was needed, it was only read)", f, c))
			}
		}
		if len(refFiles) > 0 && !names(shown, refFiles, terms) {
			return fail(fmt.Sprintf("%s names nothing this session did: none of the files it changed (%s) nor a word of its objective or commits (%s); say what was done and where",
				f, sample(refFiles), sample(terms)))
		}
	}
	if len(refFiles) == 0 {
		// Only the file itself changed (a review, a session that found
		// nothing to do): no work to name, and an objective's words alone
		// would fail honest "nothing needed changing" notes.
		return Result{Status: Skipped, Message: "the session changed no other file: no work to name"}
	}
	return Result{Status: Pass, Message: fmt.Sprintf("%s names the session's work", strings.Join(matched, ", ")), Evidence: matched[0]}
}

// names reports whether text holds a file's path, a specific file's base
// name, or a term as a word or an inflection of one ("greeting" names
// greet; "optional" does not name option: lazy pass 34 got a handoff of
// generic prose past a prefix match with it).
func names(text string, files, terms []string) bool {
	low := strings.ToLower(text)
	for _, f := range files {
		base := path.Base(f)
		stem, _, _ := strings.Cut(base, ".")
		if strings.Contains(low, f) || len(base) >= 4 && !genericNames()[stem] && strings.Contains(low, base) {
			return true
		}
	}
	for _, t := range words(low) {
		for _, r := range terms {
			if inflects(t, r) {
				return true
			}
		}
	}
	return false
}

// inflections are the endings an English word takes in a handoff.
var inflections = []string{"", "s", "es", "d", "ed", "ing", "er", "ers"}

// inflects reports whether word is term or an inflection of it.
func inflects(word, term string) bool {
	for _, e := range inflections {
		if word == term+e || strings.HasSuffix(term, "e") && word == strings.TrimSuffix(term, "e")+e {
			return true
		}
	}
	return false
}

func sample(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	if len(list) > 4 {
		return strings.Join(list[:4], ", ") + ", ..."
	}
	return strings.Join(list, ", ")
}
