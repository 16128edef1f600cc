package inferredcheck

import (
	"html"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"

	"github.com/sessiongate/sessiongate/claimtext"
	"github.com/sessiongate/sessiongate/internal/textfold"
)

// A session that changed no file but its handoff is not judged by
// NamesTheWork (an honest "nothing needed changing" note names nothing).
// Helper 346 ended such a session COMPLETE, clean, verify OK, with
// "Added the name argument to the greeting, as the task asked, and
// checked it." as its Done and "feat: greet takes a name" as its only
// commit, which held the handoff alone: the objective's work claimed
// done, none of it made. ClaimedNoWork finds such a clause: a verb that
// says the session made a change, and a word of the objective or a
// commit, with no denial, no one else's change and no question. A session
// log or retrospective beside the handoff is a note too (onlyNotes), and
// so is a code file whose change is only comments: a comment saying
// greet.sh "takes an optional name" made a session clean that never
// changed what greet.sh does (helper 346).

// doneClaimRE is a verb that says a change was made: past forms and
// "now" ("the task was to add a name" asks, it claims nothing), and what
// the changed code is said to do or be ("greet takes a name", "name
// argument: done").
var doneClaimRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:added|fixed|implemented|reworked|rewrote|rewritten|updated|refactored|modified|created|wrote|written|extended|introduced|changed|made|built|now|done|completed|finished|in\s+place|` +
		// Release words for a change made (helper 348: "Shipped the name
		// argument" claimed it in no verb of the list).
		`shipped|delivered|wired\s+(?:up|in)|hooked\s+up|rolled\s+out)\b|` + describesRE)
})

// describesRE is what code is said to do ("greet.sh takes a name"): a
// claim of the objective's work only where the objective asks for a
// change. Under an objective that asks a question (investigate, find out,
// does X handle Y) it is the session's finding: "The importer handles
// UTF-16 only with a BOM" (helper 348).
const describesRE = `\b(?:works|supports|takes|accepts|prints|handles)\b`

// inquiryRE is an objective that asks to find something out rather than
// to change it.
var inquiryRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\?|^\W*(?:does|do|is|are|can|could|should|how|why|what|which|when|where)\b|\b(?:investigate|investigation|find\s+out|whether|answer|explain|check|review|audit|triage|research|spike|evaluate|compare|assess|reproduce|diagnose|verify|confirm|explore|look\s+into|understand|profile|measure|benchmark|analy[sz]e)\b`)
})

// changeAskedRE is an objective that asks for a change besides any
// question in it: "Add a name argument ... and check that the tests pass"
// is no inquiry. The agent words its own objective, so a "check" or
// "verify" tacked on made "The greeting script accepts an optional name"
// a finding and a session that changed nothing ended COMPLETE, clean,
// verify OK (helper 349).
var changeAskedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:add|implement|fix|make|change|update|remove|delete|create|write|introduce|refactor|rename|extend|port|migrate|upgrade|bump|replace|drop|rewrite|wire|enable|disable|allow|let)\b` +
		// A command after the question ("Why is CI red? Get it green.",
		// "Resolve the conflicts, then check CI", "... and optimize it"):
		// these verbs ask for a change only where a sentence or clause
		// starts with them; "How can I speed
		// up the build?" and "Why did the deploy fail?" still ask (helper
		// 358).
		`|(?:^|[.?!;:,]\s+|\b(?:please|and|then)\s+)(?:get\s+(?:\w+\s+){1,3}?(?:green|working|passing|to\s+pass|running|building)|resolve|repair|optimi[sz]e|speed\s+up|clean\s+up|revert|merge|deploy|release|install|configure|set\s+up|patch|improve|support|convert|ship|publish)\b`)
})

// Inquiry reports an objective that asks to find something out and asks
// for no change ("Why does greet.sh print hello twice?", "Investigate the
// slow build"), as the agent or person worded it.
func Inquiry(objective string) bool {
	return inquiryRE().MatchString(objective) && !changeAsked(objective)
}

// objClauseRE splits an objective into clauses: "Find out why greet fails,
// then fix it" asks the change in its second.
var objClauseRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)[,;:?!]|\.(?:\s|$)|\s+(?:and|then|also|but|or)\s+`)
})

// changeNounRE ends with a determiner: the change word after it is a
// noun ("whether the fix in #41 stopped the flake").
var changeNounRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:the|a|an|this|that|these|those|its|our|their|his|her|my|your|last|latest|recent|new|previous|earlier)\s+$`)
})

// questionWordRE opens a question inside a clause: a change word after it
// is what is asked about ("why make fails", "whether to add a flag").
// Auxiliaries are left out: "Can you add a name argument?" asks for the
// change.
var questionWordRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:why|whether|if|how|what|which|when|where)\b`)
})

// changeAsked reports a change word of changeAskedRE used as a request:
// not as a noun after a determiner, nor inside a question of its clause.
// The objective's words as nouns ("the fix", "why make fails") made an
// honest inquiry owe a commit (helper 359); "and fix it" still asks.
func changeAsked(objective string) bool {
	for _, clause := range objClauseRE().Split(objective, -1) {
		// A clause's own start is a sentence's ("Why is CI red? Get it
		// green.": changeAskedRE reads a command there).
		clause = strings.TrimSpace(clause)
		for _, loc := range changeAskedRE().FindAllStringIndex(clause, -1) {
			before := clause[:loc[0]]
			if changeNounRE().MatchString(before) || questionWordRE().MatchString(before) {
				continue
			}
			return true
		}
	}
	return false
}

// describesOnlyRE is describesRE alone, to tell a clause that only
// describes code from one that claims a change.
var describesOnlyRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + describesRE)
})

// clauseEndRE splits a sentence into clauses: "Added X, and wrote this
// handoff" claims X in its first clause.
var clauseEndRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i),|\(|\)|—|\s+(?:and|but|then|so)\s+`)
})

// ownNoteRE is the session's own notes as a clause's object: writing
// them (or a code comment, Work.Cosmetic) is the one change such a
// session made.
var ownNoteRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:handoff|session\s+log|log|notes?|retrospective|summary|comments?|docstrings?|typos?|wording|spelling|` +
		// Paperwork an honest session without a code change makes: a
		// plan, a design, findings (round 60: "Created a plan for the
		// migration" is no claim of the migration).
		`plans?|planning|design|proposal|decisions?|analysis|findings|investigation|report|outline|draft|todo|checklist|docs?|documentation|headers?|copyright|licen[cs]e|` +
		// What a change of comments only says it made (helper 348:
		// "Added SPDX identifiers to greet.go", "The retry loop is now
		// explained inline", "nolint directives for two false positives").
		`spdx|annotations?|annotated|explained|explanations?|commented|documented|directives?|pragmas?|nolint|noqa|markers?)\b`)
})

// elsewhereRE is work someone else did or that lives elsewhere: a pull
// request, a commit, a person, an earlier session, the issue tracker, the
// host's settings or a server; a
// change by a team or a person ("updated by the infra team", "done in her
// branch") or by nothing ("fixed itself", helper 348).
var elsewhereRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:PRs?|pull\s+requests?|merge\s+requests?|upstream|earlier|previous|another|other|issues?|tracker|tickets?|wiki|board|labels?|milestones?|itself|on\s+its\s+own)\b|#\d+|@[\w-]+|\b[0-9a-f]{7,40}\b` +
		// A place outside the repository an honest session changes with no
		// commit: the host's settings, a server, a chat (helper 348:
		// "Changed the branch protection rules on GitHub", "Added the
		// deploy key to the server").
		`|\b(?:GitHub|GitLab|Bitbucket|settings|org|organi[sz]ation|servers?|staging|production|cluster|pods?|vault|dashboard|Slack|DNS|cloud)\b` +
		`|\bby\s+(?:the\s+|our\s+|their\s+)?(?:[\w-]+\s+)?(?:team|maintainers?|owners?|lead|admins?|ops|colleagues?|him|her|them|someone|somebody)\b|\b(?:her|his|their|someone's|somebody's)\s+(?:own\s+)?(?:branch|fork|change|work|patch|repo)\b`)
})

// onlyNotes reports whether every changed file is the check's own (the
// handoff and its siblings) or another session note in the dot-folder the
// glob lives in (`.agents/sessions/...`, a retrospective): a session log
// written beside the handoff is no work on the objective. Other Markdown
// there (`.agents/skills/qa.md`, a governance page) is a team's real work
// in a repository of agent instructions, so it counts as work.
func onlyNotes(glob string, changed []string, own func(string) bool) bool {
	top, _, _ := strings.Cut(glob, "/")
	for _, f := range changed {
		if own(f) || strings.HasPrefix(top, ".") && top != glob && strings.HasPrefix(f, top+"/") && strings.HasSuffix(strings.ToLower(f), ".md") && sessionNoteRE().MatchString(f[len(top):]) {
			continue
		}
		return false
	}
	return true
}

// sessionNoteRE is a path (below the dot-folder) of a session's own
// record: a session log, a retrospective, a journal.
var sessionNoteRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)session|\blogs?\b|retro|journal|notes|handoff|history`)
})

// madeRE is a past verb of a change made, read alone when the objective
// and commits hold no specific word (an objective "do it" and a commit
// "docs: handoff" left ClaimedNoWork nothing to match).
var madeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:added|fixed|implemented|reworked|rewrote|refactored|modified|extended|introduced|changed)\b`)
})

// ClaimedNoWork returns the first clause of text's Done sections that
// claims a change of the session's objective or commits (terms) as made,
// for a session that changed no file but the handoff; "" when none does.
// With no terms, a past verb of a change (madeRE) is claim enough.
//
// Under an objective that asks a question (inquiryRE) a clause that only
// says what code does is a finding, not a claim. Outside Done a claim in
// a Status section, a label, a ticked box or the session's own voice
// counts too (claimedOutsideDone).
func ClaimedNoWork(text string, terms []string, objective string) string {
	inquiry := Inquiry(objective)
	bodies, _ := claimtext.DoneSections(text)
	for _, body := range bodies {
		// Tags are markup, not words: "<summary>" made the clause after it
		// read as the session's own summary (helper 357).
		body = norm.NFKC.String(strings.Map(dropInvisible, html.UnescapeString(htmlTagRE().ReplaceAllString(body, " "))))
		if !inquiry {
			if claim := checkedClaim(body, terms); claim != "" {
				return claim
			}
		}
		for _, st := range splitSentences(body) {
			if st.question || changeDenialRE().MatchString(st.text) || othersRE().MatchString(st.text) {
				continue
			}
			for _, clause := range clauseEndRE().Split(st.text, -1) {
				if claim := otherLanguageClaim(clause); claim != "" {
					return claim
				}
				// Folded too: one Cyrillic "А" in "Аdded" hid the claim
				// from the English words (helper 357).
				if englishClaim(clause, terms, inquiry) || !isASCII(clause) && englishClaim(textfold.Fold(clause), terms, inquiry) {
					return strings.TrimSpace(clause)
				}
			}
		}
	}
	return claimedOutsideDone(text, terms, inquiry)
}

// englishClaim reports whether clause claims, in English, a change of the
// objective or commits (terms) as made.
func englishClaim(clause string, terms []string, inquiry bool) bool {
	if !doneClaimRE().MatchString(clause) || denialRE().MatchString(clause) ||
		inquiry && !doneClaimRE().MatchString(describesOnlyRE().ReplaceAllString(clause, " ")) ||
		ownNoteRE().MatchString(notedRE().ReplaceAllString(clause, " ")) || elsewhereRE().MatchString(clause) || readRunRE().MatchString(clause) {
		return false
	}
	return len(terms) == 0 && madeRE().MatchString(clause) || names(clause, nil, terms)
}

// checkedRE is a checked box of a Markdown task list.
var checkedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(?:[-*+]|\d+[.)])\s+\[[xX✓✔]\]\s+(.+)$`)
})

// checkedClaim returns a checked box of body that names the objective or
// a commit (terms) with no verb: "- [x] Name argument for the greeting
// script" reads as done to anyone, though no verb of a change is in it
// (helper 357: nothing changed, COMPLETE, clean, verify OK). A box of what
// was read or run, of notes, of work elsewhere or denied claims nothing.
func checkedClaim(body string, terms []string) string {
	if len(terms) == 0 {
		return ""
	}
	for _, m := range checkedRE().FindAllStringSubmatch(body, -1) {
		item := m[1]
		if changeDenialRE().MatchString(item) || denialRE().MatchString(item) || othersRE().MatchString(item) || item != textfold.Fold(item) && denialRE().MatchString(textfold.Fold(item)) ||
			ownNoteRE().MatchString(notedRE().ReplaceAllString(item, " ")) || elsewhereRE().MatchString(item) || readRunRE().MatchString(item) || strings.HasSuffix(strings.TrimSpace(item), "?") {
			continue
		}
		if names(item, nil, terms) {
			return strings.TrimSpace(m[0])
		}
	}
	return ""
}

// htmlTagRE is an HTML tag.
var htmlTagRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`</?[A-Za-z][^<>]*>`) })

// notedRE is a note the clause follows rather than makes: "Added the
// name argument as the plan said" claims the argument; the plan is no
// object of the verb (helper 357: a note word anywhere excused a claim).
var notedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:as|per|like|following|according\s+to|see|from|under|by)\s+(?:(?:the|this|that|our|my|its|a|an)\s+)?(?:[\w-]+\s+)?(?:handoff|session\s+log|log|notes?|summary|plans?|design|proposal|decisions?|analysis|findings|report|outline|draft|todo|checklist|docs?|documentation)\b`)
})

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
