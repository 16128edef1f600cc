package protocolspec

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A built-in check from the title table (the content hash of the handoff
// for "Context Retrieval", a commit since the start for "Git Operations")
// proves the requirement it is about, not the phase's other MUSTs. It used
// to take must_evidence's place for the whole phase, so "Read the issue or
// task you were given" and "Re-verify the branch before commit" owed
// nothing and a lazy agent skipped them (adversarial pass, issue 25). Now
// such a phase also owes evidence for each MUST no check proves; the ones
// a check proves are marked ProvenBy and owe none.

// commitVerbRE finds a requirement whose action is committing ("Commit
// all changes", "The agent MUST commit ..."), which commit_since_start
// proves.
// Compiled on first use: every process links this package (a git hook
// too) and a package-level pattern was compiled at each one's start.
var commitVerbRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:the\s+agent\s+)?(?:must\s+|shall\s+)?(?:commit|create\s+(?:a\s+)?commit|make\s+(?:a\s+)?commit)\b`)
})

// oweUncovered adds must_evidence to each phase whose only gate is a
// built-in machine check and whose MUSTs that check (or a check inferred
// from the text) does not prove.
func (w *walker) oweUncovered() {
	for i := range w.spec.Phases {
		p := &w.spec.Phases[i]
		var builtin []Check
		owes := false
		for _, c := range p.Checks {
			switch {
			case c.Kind == CheckMustEvidence || c.Kind == CheckEvidence || c.Kind == CheckCommand:
				owes = true // a command's run speaks for the phase, as a configured one does
			case c.Builtin && c.Inferred == nil && (c.Kind == CheckContentHash || c.Kind == CheckCommitSinceStart):
				// A file of this session (the session log, the QA report)
				// is what its phase's MUSTs produce; the calls they name
				// (the qa sub-agent) are bound by the transcript. The read
				// and the commit rows stand beside other work.
				builtin = append(builtin, c)
			}
		}
		if owes {
			continue
		}
		// An item under a lead ("Session context MUST go to: Serena
		// memory ...") is a requirement of its own: one no check proves
		// (its file is not a file check's) owes evidence, and the phase's
		// other MUSTs no check proves then owe it too.
		if listedUnproven(p) {
			builtin = fileBuiltins(p)
		} else if len(builtin) == 0 {
			continue
		}
		uncovered := false
		for j := range p.Requirements {
			r := &p.Requirements[j]
			if r.Level != LevelMust || r.Summary {
				continue
			}
			if by := provenBy(p, builtin, *r); by != "" {
				r.ProvenBy = by
				continue
			}
			uncovered = true
		}
		if uncovered {
			p.Checks = append(p.Checks, Check{Kind: CheckMustEvidence, Builtin: true, Line: p.Line})
		} else {
			for j := range p.Requirements {
				p.Requirements[j].ProvenBy = "" // the phase owes nothing either way
			}
		}
	}
}

// fileBuiltins are the phase's built-in checks (not inferred) that can
// prove a requirement.
func fileBuiltins(p *Phase) []Check {
	var out []Check
	for _, c := range p.Checks {
		if c.Builtin && c.Inferred == nil {
			switch c.Kind {
			case CheckContentHash, CheckCommitSinceStart, CheckFileExists, CheckChangedSinceStart:
				out = append(out, c)
			}
		}
	}
	return out
}

// listedUnproven reports whether a MUST item under a lead (Requirement.Lead)
// is proven by none of the phase's checks.
func listedUnproven(p *Phase) bool {
	var files []Check
	for _, r := range p.Requirements {
		if r.Lead == "" || r.Level != LevelMust {
			continue
		}
		if files == nil {
			files = fileBuiltins(p)
		}
		if provenBy(p, files, r) == "" {
			return true
		}
	}
	return false
}

// provenBy names the check that proves r ("" when none does).
func provenBy(p *Phase, builtin []Check, r Requirement) string {
	for _, c := range p.Checks {
		if c.Inferred != nil && (c.Inferred.Requirement == r.ID || c.Inferred.Requirement == "" && c.Inferred.Line == r.Line) {
			return string(c.Kind)
		}
	}
	for _, c := range builtin {
		if aboutRow(p.Title, c, r.Text) {
			return string(c.Kind) + " " + c.Arg
		}
		switch c.Kind {
		case CheckContentHash, CheckFileExists, CheckChangedSinceStart:
			if slices.ContainsFunc(r.NamedPaths(), func(g string) bool { return globsMeet(g, c.Arg) }) {
				return string(c.Kind) + " " + c.Arg
			}
		case CheckCommitSinceStart:
			if commitVerbRE().MatchString(r.Text) {
				return string(c.Kind)
			}
		}
	}
	return ""
}

// aboutRow reports whether a requirement's text names what the built-in
// table row that gave check c is about ("create the session log" in a
// "Session Log" phase, whose row checks .agents/sessions/*).
func aboutRow(title string, c Check, text string) bool {
	lt, lx := strings.ToLower(title), strings.ToLower(text)
	for _, b := range builtinChecks {
		if b.kind != c.Kind || b.arg != c.Arg {
			continue
		}
		for _, m := range b.match {
			if strings.Contains(lt, m) && strings.Contains(lx, m) {
				return true
			}
		}
	}
	return false
}

// globsMeet reports whether a path the requirement names and a check's
// path (either may be a glob) can be the same file.
func globsMeet(a, b string) bool {
	if a == b {
		return true
	}
	if ok, _ := path.Match(b, a); ok {
		return true
	}
	if ok, _ := path.Match(a, b); ok {
		return true
	}
	da, db := strings.TrimSuffix(a, "/**"), strings.TrimSuffix(b, "/*")
	return da == db
}
