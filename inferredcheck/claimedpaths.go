package inferredcheck

import (
	"html"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/sessiongate/sessiongate/claimtext"
	"github.com/sessiongate/sessiongate/committype"
	"github.com/sessiongate/sessiongate/mdtext"
	"github.com/sessiongate/sessiongate/repopath"
	"golang.org/x/text/unicode/norm"
)

// A handoff whose Done names a file the session never touched reports
// work that is not there: lazy pass 43 committed only a handoff saying
// "scripts/greet.sh takes an optional name." (N0: the session changed no
// other file, so names-the-work had nothing to judge), or retitled the
// README and claimed the feature (N0b: the objective's words named the
// work). A Done section that names repository files, none of them changed
// by the session, claims what the diff does not hold, unless it says so
// (a denial: "no change was needed in scripts/greet.sh"), reports what
// was read ("reviewed scripts/greet.sh": an investigation's honest handoff
// names the files it read) or reports a run ("scripts/test.sh: 1
// validation(s) passed": the test script the session ran, unchanged; a
// test file named anywhere in Done is taken as such a report).

// pathTokenRE is a token that reads as a repository path: a folder and a
// name, or a name with an extension.
var pathTokenRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+|[A-Za-z0-9_\-]+\.[A-Za-z0-9]{1,8}\b`)
})

// excuseRE is a denial, or a verb of reading, finding or running: the
// section does not claim it changed the files it names.
var excuseRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:` + denialWords + `|` + readWords + `|ran|runs|run|running|` + resultWords + `)\b|n't\b`)
})

// excuseBeforeRE is excuseRE without the words of a result: "X passes"
// reports a run of X, but "all tests pass and X takes a name" claims X.
var excuseBeforeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:` + denialWords + `|` + readWords + `|ran|runs|run|running)\b|n't\b`)
})

const (
	denialWords = `no|not|nothing|none|never|neither|nor|without|unchanged|untouched|unaffected|unmodified|unable|cannot|couldn't|didn't|wasn't|isn't|doesn't|won't|blocked|already`
	readWords   = `read|reviewed|reviewing|inspected|investigated|checked|examined|looked|found|traced|audited|verified|confirmed|reproduced|explored|studied|diagnosed|diagnosing|identified|located|pinpointed|profiled|measured|debugged|analy[sz]ed`
	resultWords = `pass|passes|passed|passing|fails|failed|failing|green|succeeded|validations?|tests?`
)

// ClaimedUnchanged returns a repository file a Done section of text names
// while the session changed none of the files that section names, and
// the section neither denies the change nor reports reading ("" when
// none). changed is the session's changed files; own reports the files
// of the check itself (the handoff), never a claim.
func ClaimedUnchanged(root, text string, changed []string, own func(string) bool) string {
	bodies, _ := claimtext.DoneSections(text)
	for _, body := range bodies {
		// What a reader cannot see is not there: `scripts/greet\u200b.sh`
		// renders as the path (re-check 42, D3).
		// Entities (`greet&#46;sh`) and compatibility forms (U+2024 one
		// dot leader, a fullwidth stop) render as the path (pass 45's D4,
		// D9).
		body = norm.NFKC.String(strings.Map(dropInvisible, html.UnescapeString(body)))
		// A changed file that is no path token (`Makefile`, `.editorconfig`,
		// `Dockerfile`) is named all the same (honest pass 47's E1-E4).
		touched := namesChangedFile(body, changed, own)
		var claimed []string // unchanged files named in a sentence that claims them
		var bare []string    // bare names found nowhere at the root
		for _, st := range splitSentences(body) {
			sentence := st.text
			toks := pathTokenRE().FindAllStringIndex(sentence, -1)
			for i, at := range toks {
				p := strings.TrimRight(strings.TrimPrefix(sentence[at[0]:at[1]], "./"), ".")
				if p == "" || own(p) {
					continue
				}
				if st.question && asksAbout(sentence[:at[0]]) {
					// "Waiting on an answer: should X print ...?" asks;
					// it claims nothing (honest pass 48's L2).
					continue
				}
				if slices.ContainsFunc(changed, func(c string) bool {
					return strings.EqualFold(c, p) || hasPrefixFold(c, strings.TrimSuffix(p, "/")+"/") || !strings.Contains(p, "/") && strings.EqualFold(path.Base(c), p)
				}) {
					// A changed Markdown file counts too: a docs-only
					// session's "README.md now documents scripts/greet.sh"
					// (pass 45's HD2).
					touched = true
					continue
				}
				if committype.IsTest(p) || mdtext.IsMarkdown(p) {
					// A Markdown file named in Done is read or followed
					// ("Followed SESSION-PROTOCOL.md": helper-285's HD1),
					// not work claimed on it.
					// A test file named in Done reports the run that
					// checked the work, not work on it.
					continue
				}
				if excusedAt(sentence, toks, i) {
					continue
				}
				if abs, ok, err := repopath.Resolve(root, p); err == nil && ok && lstatOK(abs) {
					claimed = append(claimed, p)
				} else if real := foldLookup(root, p); real != "" {
					claimed = append(claimed, real) // `scripts/Greet.sh` (pass 45's D5)
				} else if !strings.Contains(p, "/") {
					bare = append(bare, p)
				}
			}
		}
		if touched {
			continue
		}
		if len(claimed) > 0 {
			return claimed[0]
		}
		// `greet.sh takes an optional name.` names scripts/greet.sh by
		// its base name (re-check 42, D1): looked for only now, when the
		// section names nothing the session changed.
		if found := findBase(root, bare); found != "" {
			return found
		}
	}
	return ""
}

// namesChangedFile reports whether text names one of changed (not own)
// by its path or base name as a word of its own, case folded: what
// pathTokenRE cannot see, a name with no extension or a dotfile. Names
// shorter than three letters are left out ("a" is a word).
func namesChangedFile(text string, changed []string, own func(string) bool) bool {
	lower := strings.ToLower(text)
	for _, c := range changed {
		if own(c) {
			continue
		}
		// README.md written "README" or "the readme" (CHANGELOG,
		// CONTRIBUTING): a project's conventional documents are named by
		// their stem in any case (round 55: "README describes pkg/a" and
		// "Updated the changelog for pkg/b" failed docs-only sessions'
		// handoffs). Another stem in capitals (PLAN.md, NOTES.md, TODO.md)
		// names the file only written as the file is: "as the plan said"
		// or "notes" named a changed PLAN.md or NOTES.md, and a session that
		// changed only it passed a claim of work elsewhere (helper 331).
		if stem, _, ok := strings.Cut(path.Base(c), "."); ok && len(stem) >= 4 && stem == strings.ToUpper(stem) && strings.ContainsFunc(stem, unicode.IsLetter) {
			if slices.Contains(conventionalDocs, stem) && wordIn(lower, strings.ToLower(stem)) || wordIn(text, stem) {
				return true
			}
		}
		for k, name := range []string{c, path.Base(c)} {
			if (k == 1 || !strings.Contains(c, "/")) && !strings.Contains(name, ".") && !quotedIn(text, name) && !capitalisedIn(text, name) {
				// A bare word (`docs/hello` as "hello"): any prose has it
				// (round 44's re-check, E2). `Makefile` quoted, or written
				// capitalised as the file is, names the file.
				continue
			}
			name = strings.ToLower(name)
			if len([]rune(name)) < 3 {
				continue
			}
			for i := 0; ; {
				j := strings.Index(lower[i:], name)
				if j < 0 {
					break
				}
				at, end := i+j, i+j+len(name)
				if !pathRune(lower, at-1) && !pathRune(lower, end) {
					return true
				}
				i = at + 1
			}
		}
	}
	return false
}

// conventionalDocs are the stems of a project's conventional documents.
// Only those whose stem is no everyday word: "the changes", "good news",
// "git history" and "a security bug" named a changed CHANGES.md, NEWS.md,
// HISTORY.md or SECURITY.md (helper 332); those are named as written.
var conventionalDocs = []string{"README", "CHANGELOG", "CONTRIBUTING"}

// wordIn reports whether lower holds word on no longer name's inside.
func wordIn(lower, word string) bool {
	for i := 0; ; {
		j := strings.Index(lower[i:], word)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(word)
		if !pathRune(lower, at-1) && !pathRune(lower, end) {
			return true
		}
		i = at + 1
	}
}

// quotedIn reports whether text holds name in backticks or quotes.
func quotedIn(text, name string) bool {
	for _, q := range []string{"`", "\"", "'"} {
		if strings.Contains(strings.ToLower(text), q+strings.ToLower(name)+q) {
			return true
		}
	}
	return false
}

// capitalisedIn reports whether name starts with a capital letter and text
// holds it as written, on no word's inside (Makefile, Dockerfile).
func capitalisedIn(text, name string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(name)
		if !pathRune(text, at-1) && !pathRune(text, end) {
			return true
		}
		i = at + 1
	}
}

// pathRune reports whether s[i] (in range) is a letter, digit or one of
// "_-/" that would make a name found there part of a longer one; a
// trailing "." counts only when a letter or digit follows it.
func pathRune(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	if c == '.' {
		return i+1 < len(s) && (isAlnum(s[i+1]) || s[i+1] == '/')
	}
	return isAlnum(c) || c == '_' || c == '-' || c == '/' || c >= 0x80
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z'
}

// excusedAt reports whether the path token toks[i] of sentence is not
// claimed as changed: a denial or a verb of reading or running shortly
// before it ("no change was needed in X", "reviewed X", "ran X") or one of
// those or a result within excuseReach words after it ("X is unchanged",
// "X passes"). An excuse
// word further on says nothing of the path: "X takes an optional name
// and greets it on every run" claims X (re-check 42, D2). Words inside
// paths are no excuse ("test" of scripts/test.sh).
func excusedAt(sentence string, toks [][]int, i int) bool {
	before := sentence[:toks[i][0]]
	if changeDenialRE().MatchString(before) {
		// "Nothing changed: X is generated upstream" (TestAdvLazy43's
		// HX14): a verdict on the change reads past its clause.
		return true
	}
	// Only the path's own clause: "No blockers: X takes a name", "Without
	// breaking callers, X takes a name" and "X takes a name (not yet in
	// the README)" claim X (pass 45's D2, D8, D10). A colon or comma after
	// the path still reads on ("X: unchanged", "X, already correct").
	if j := strings.LastIndexAny(before, ",()—"); j >= 0 {
		before = before[j+1:]
	}
	// A reading verb reads across a colon ("Looked into the report:
	// scripts/greet.sh prints hello once", TestHonestOrdinaryTasks26); a
	// denial does not ("No blockers: X ...").
	wide := plainWords(before)
	if j := strings.LastIndex(before, ":"); j >= 0 {
		before = before[j+1:]
	}
	if readRunRE().MatchString(strings.Join(wide[max(0, len(wide)-excuseReachBefore):], " ")) && !changeVerbRE().MatchString(strings.Join(wide, " ")) {
		return true
	}
	after := sentence[toks[i][1]:]
	if i+1 < len(toks) {
		after = sentence[toks[i][1]:toks[i+1][0]]
	}
	if j := strings.IndexAny(after, "()—"); j >= 0 {
		after = after[:j]
	}
	bw, aw := plainWords(before), plainWords(after)
	clause := strings.Join(append(slices.Clone(bw), aw...), " ")
	// A change made by someone else, tried and taken back, or already
	// there is no claim of the session's, change verb or not: "Reviewed
	// PR #41, which adds ... to X, and approved it", "Attempted ... X,
	// reverted it", "X was already implemented on main", "Handed X to
	// @ada", "opened upstream PR ... that adds ... to X" (honest pass 47's
	// N1, N3, N4, N6, N7).
	if othersRE().MatchString(clause) || othersPRRE().MatchString(sentence[:toks[i][0]]) {
		return true
	}
	// A change verb in the clause claims the path whatever else it says:
	// "Reviewed and reworked X", "Debugged and fixed X" (pass 46's C1, C2,
	// C4).
	if changeVerbRE().MatchString(clause) {
		return false
	}
	// A denial, a diagnosis or an act outside the files anywhere in the
	// clause: "X ignores its argument because it never reads $1", "The
	// bug is in X", "Tagged v1.1 with X" (pass 46's HC1-HC3).
	if denialRE().MatchString(clause) || diagnosisRE().MatchString(clause) {
		return true
	}
	if excuseBeforeRE().MatchString(strings.Join(bw[max(0, len(bw)-excuseReachBefore):], " ")) {
		return true
	}
	return excuseRE().MatchString(strings.Join(aw[:min(len(aw), excuseReach)], " "))
}

// plainWords is text's words with paths, idioms and hyphenated compounds
// taken out of the excuse's way: "no-argument calls" denies nothing (pass
// 46's C3).
func plainWords(text string) []string {
	text = pathTokenRE().ReplaceAllString(text, " ")
	text = hyphenRE().ReplaceAllString(text, "$1$2")
	return strings.Fields(idiomRE().ReplaceAllString(text, " "))
}

var hyphenRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\w)-(\w)`) })

// readRunRE is a verb of reading or running.
var readRunRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:` + readWords + `|ran|runs|run|running)\b`)
})

// denialRE is denialWords alone.
var denialRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:` + denialWords + `)\b|n't\b`)
})

// changeVerbRE is a verb that says the session changed something.
var changeVerbRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:add|added|adds|adding|fix|fixed|fixes|fixing|implement|implemented|implements|rework|reworked|rewrote|rewritten|update|updated|updates|refactored|modified|created|wrote|extended|introduced|changed|now)\b`)
})

// othersRE is the words of a change that is not the session's: one
// already there ("was already implemented", "already on main"), taken
// back ("reverted"), or handed to a person ("handed ... to @ada"). Each
// needs its frame: "already updated X", "tried X upstream", "approved by
// review", "as @ada asked" are claims (round 44's re-check, helper-290).
var othersRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:was|were|is|are|been)\s+already\b|\balready\s+(?:\w+\s+){0,2}(?:on|in)\s+(?:main|master|trunk|develop|upstream)\b|\b(?:reverted|backed\s+out|rolled\s+back|abandoned)\b|\b(?:handed|delegated|assigned)\b(?:\s+\S+){0,8}?\s+to\s+@[\w-]+`)
})

// othersPRRE is a pull request named before the path, whose relative
// clause then says what it changes: "Reviewed PR #41, which adds ... to X",
// "opened upstream PR acme/greet#88 that adds ... to X" (honest pass 47's
// N1, N7). "ready for PR review" says nothing of whose change it is.
var othersPRRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:PR|pull\s+request|merge\s+request)\s*(?:[\w/#.-]+\s*)?,?\s*(?:which|that)\s+\w+`)
})

// diagnosisRE is a finding's words and an act outside the files: a
// diagnosis names the file the fault is in, a release the file it ships.
var diagnosisRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:bug|bugs|cause|caused|because|culprit|fault|defect|regression|tagged|released|deployed|shipped|rolled)\b`)
})

// idiomRE is phrases whose excuse word says the opposite: "checked in"
// is committed (pass 45's D1), "no longer" and "not only" claim a change.
var idiomRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:checked\s+in|no\s+longer|not\s+only|now\s+passes|now\s+runs)\b`)
})

// excuseReach is how many words after a path an excuse still reads as
// about it: "X is not changed", "X: unchanged, already does it";
// excuseReachBefore how many before ("no change was needed in X").
const (
	excuseReach       = 4
	excuseReachBefore = 6
)

// hasPrefixFold is strings.HasPrefix, case folded.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// foldLookup is the path of the file p names under root with its letters'
// case ignored, each folder read once (a reader takes `scripts/Greet.sh`
// for scripts/greet.sh); "" when none, or when p leaves root.
func foldLookup(root, p string) string {
	if _, err := repopath.Clean(p); err != nil {
		return ""
	}
	dir, rel := root, ""
	for _, part := range strings.Split(strings.Trim(p, "/"), "/") {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return ""
		}
		match := ""
		for _, e := range entries {
			if strings.EqualFold(e.Name(), part) && !strings.HasPrefix(e.Name(), ".git") {
				match = e.Name()
				break
			}
		}
		if match == "" {
			return ""
		}
		dir, rel = filepath.Join(dir, match), path.Join(rel, match)
	}
	return rel
}

// lstatOK reports whether abs exists (a link counts as itself).
func lstatOK(abs string) bool {
	_, err := os.Lstat(abs)
	return err == nil
}

// dropInvisible drops format characters (U+200B zero-width space, joiners,
// U+00AD soft hyphen) and other default-ignorable ones, for strings.Map.
func dropInvisible(r rune) rune {
	if r < 0x80 {
		return r
	}
	if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) {
		return -1
	}
	return r
}

// findBase is the path of a file whose name is one of bases under root
// (one walk however many), "" when none or past maxBaseWalk entries: dot
// folders, node_modules and vendor are not looked in (the project's own
// files are what Done speaks of).
func findBase(root string, bases []string) string {
	if len(bases) == 0 {
		return ""
	}
	found, seen := "", 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxBaseWalk {
			return fs.SkipAll
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor") {
				return fs.SkipDir
			}
			return nil
		}
		if slices.Contains(bases, name) && d.Type().IsRegular() {
			if rel, err := filepath.Rel(root, p); err == nil {
				found = filepath.ToSlash(rel)
				return fs.SkipAll
			}
		}
		return nil
	})
	return found
}

// maxBaseWalk bounds findBase's walk.
const maxBaseWalk = 20000

// sentenceEndRE ends a sentence: a stop followed by space, or a line.
var sentenceEndRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?;](?:\s|$)|\n`) })

// doneSentence is one sentence of a Done section; question: it ends with "?".
type doneSentence struct {
	text     string
	question bool
}

// splitSentences splits text at sentenceEndRE, telling questions.
func splitSentences(text string) []doneSentence {
	var out []doneSentence
	from := 0
	for _, m := range sentenceEndRE().FindAllStringIndex(text, -1) {
		out = append(out, doneSentence{text[from:m[0]], text[m[0]] == '?'})
		from = m[1]
	}
	return append(out, doneSentence{text: text[from:]})
}

// questionStartRE is a question's first word: a modal, an auxiliary or a
// wh-word.
var questionStartRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:should|shall|can|could|would|will|may|might|must|do|does|did|is|are|was|were|has|have|which|what|why|how|where|when|who|whether)\b`)
})

// asksAbout: a question's clause before a path opens with a question
// word: "should X print ...?", "Open question: does X need ...?". A claim
// with a question mark after it ("Added the name to X, right?") is no
// question of this shape.
func asksAbout(before string) bool {
	if j := strings.LastIndexAny(before, ":,(—"); j >= 0 {
		before = before[j+1:]
	}
	return questionStartRE().MatchString(strings.TrimLeft(before, " \t*-_>"))
}

// changeDenialRE is a verdict that nothing was changed, which excuses
// every path after it in the sentence.
var changeDenialRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:nothing\s+(?:was\s+|is\s+)?(?:changed|updated|modified|added|fixed|to\s+(?:do|change))|no\s+(?:code\s+|file\s+)?(?:changes?|updates?)\b|not\s+(?:changed|updated|modified)|unchanged|untouched)`)
})
