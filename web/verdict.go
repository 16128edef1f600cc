package web

import (
	"strconv"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// Verdict is a session's outcome in words and colour: the one line a
// reviewer reads first. A session that completed with violations never
// looks like a clean COMPLETE.
type Verdict struct {
	Text  string // "Completed with 2 CRITICAL violations"
	Icon  string // a glyph, so colour is never the only carrier
	Class string // badge class: v-clean, v-running, v-crit, v-high, v-warn, v-ended
	Worst string // the worst severity, "" without violations
}

// SeverityCounts counts violations by severity.
type SeverityCounts map[string]int

// CountSeverities counts a list of violations by severity.
func CountSeverities(vs []session.Violation) SeverityCounts {
	out := SeverityCounts{}
	for _, v := range vs {
		out[v.Severity]++
	}
	return out
}

// Total is the number of violations counted.
func (c SeverityCounts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Worst is the most severe severity counted, "" when none.
func (c SeverityCounts) Worst() string {
	for _, s := range AllSeverities {
		if c[s] > 0 {
			return s
		}
	}
	if c.Total() > 0 {
		return "UNKNOWN" // a severity this version does not know: shown as serious
	}
	return ""
}

// Summary renders "2 CRITICAL violations" or "1 CRITICAL and 2 HIGH
// violations", worst first.
func (c SeverityCounts) Summary() string {
	var parts []string
	known := 0
	for _, s := range AllSeverities {
		if c[s] > 0 {
			parts = append(parts, strconv.Itoa(c[s])+" "+s)
			known += c[s]
		}
	}
	if other := c.Total() - known; other > 0 {
		parts = append(parts, strconv.Itoa(other)+" other")
	}
	if len(parts) == 0 {
		return "no violations"
	}
	noun := " violations"
	if c.Total() == 1 {
		noun = " violation"
	}
	if len(parts) == 1 {
		return parts[0] + noun
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + noun
}

// VerdictOf says how a session ended (or stands) given its violations,
// when its gate results are not at hand (the sessions list): a complete
// session without violations is "Completed, no violations", never
// "cleanly": a gate that failed and did not block may be among them.
func VerdictOf(state session.State, c SeverityCounts) Verdict {
	return verdictOf(state, c, -1)
}

// verdictOf is VerdictOf knowing how many gates failed without blocking
// (an optional phase's gate, skipped): -1 when unknown. Only a session
// with no violation and no failed gate completed cleanly.
func verdictOf(state session.State, c SeverityCounts, failedGates int) Verdict {
	var word, icon, class string
	switch state {
	case session.StateComplete:
		word, icon, class = "Completed", "✓", "v-clean"
	case session.StateAbandoned:
		word, icon, class = "Abandoned", "◌", "v-ended"
	case session.StateTerminated:
		word, icon, class = "Terminated", "■", "v-ended"
	default:
		word, icon, class = "Running", "●", "v-running"
	}
	v := Verdict{Text: word, Icon: icon, Class: class, Worst: c.Worst()}
	if v.Worst == "" {
		if state == session.StateComplete {
			switch {
			case failedGates > 0:
				v.Text = "Completed with " + Plural(failedGates, "failed gate", "failed gates") + " (not blocking)"
				v.Icon, v.Class = "!", "v-warn"
			case failedGates == 0:
				v.Text = "Completed cleanly"
			default:
				v.Text = "Completed, no violations"
			}
		}
		return v
	}
	v.Text = word + " with " + c.Summary()
	switch v.Worst {
	case session.SeverityCritical:
		v.Icon, v.Class = "✗", "v-crit"
	case session.SeverityHigh, "UNKNOWN":
		v.Icon, v.Class = "✗", "v-high"
	default:
		v.Icon, v.Class = "!", "v-warn"
	}
	return v
}

// VerdictClass is the badge class of a verdict.
func VerdictClass(v Verdict) string { return "badge verdict " + v.Class }

// Ago renders how long ago t was, relative to now: "12s ago", "4m ago".
func Ago(t, now time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	if d < 0 {
		return "in " + FormatDuration(-d)
	}
	if d < time.Second {
		return "just now"
	}
	return roundDuration(d) + " ago"
}

// Until renders how long until t: "in 1h48m", or "overdue by 3m".
func Until(t, now time.Time) string {
	d := t.Sub(now)
	if d < 0 {
		return "overdue by " + roundDuration(-d)
	}
	return "in " + roundDuration(d)
}

// roundDuration is FormatDuration at whole seconds, for relative times.
func roundDuration(d time.Duration) string {
	if d < time.Minute {
		return strconv.Itoa(int(d.Seconds())) + "s"
	}
	return FormatDuration(d.Truncate(time.Second))
}

// Verdict is the session's outcome given its violations and its gates: a
// gate that failed without blocking (skipped) is not clean.
func (d SessionDetail) Verdict() Verdict {
	v := verdictOf(d.Session.State, CountSeverities(d.Violations), d.FailedGates())
	notClean := func(what string) {
		if v.Text == "Completed cleanly" {
			v.Text = "Completed, not clean"
		}
		v.Text += " · " + what
		if v.Class == "v-clean" {
			v.Icon, v.Class = "!", "v-warn"
		}
	}
	if n := d.NothingChecked(); n > 0 {
		// A mandatory gate that checked nothing did not block, and did
		// not pass either (session.PhaseNotClean).
		notClean(Plural(n, "BLOCKING/REQUIRED gate", "BLOCKING/REQUIRED gates") + " checked nothing")
	}
	if n := len(session.PendingNA(d.NotApplicable)); n > 0 {
		// Never clean while a person has yet to accept a mark.
		notClean(strconv.Itoa(n) + " N/A pending acceptance")
	}
	return v
}

// FailedGates counts the phases whose gate failed and was skipped because
// it could not block (an optional or recommended phase).
func (d SessionDetail) FailedGates() int {
	n := 0
	for _, t := range d.Timeline {
		if t.Result != nil && GateFailedSkipped(t.Result) {
			n++
		}
	}
	return n
}

// NothingChecked counts the mandatory phases whose gate ran and checked
// nothing (session.DecisionNothingChecked).
func (d SessionDetail) NothingChecked() int {
	n := 0
	for _, t := range d.Timeline {
		if r := t.Result; r != nil && session.ResultNotClean(*r) == session.NotCleanNothingChecked {
			n++
		}
	}
	return n
}

// NotCleanPhases names the phases of rs that keep a session from being
// clean, "PHASE (why)", for the sessions list.
func NotCleanPhases(rs []session.PhaseResult) []string {
	var out []string
	for _, r := range rs {
		if why := session.ResultNotClean(r); why != "" {
			out = append(out, r.PhaseID+" ("+strings.TrimSuffix(why, ":")+")")
		}
	}
	return out
}

// GateFailedSkipped reports whether a phase result is a failed gate that
// did not block: its status is SKIPPED but a check failed.
func GateFailedSkipped(r *session.PhaseResult) bool {
	if r.Status != session.PhaseSkipped {
		return false
	}
	for _, c := range r.Checks {
		if c.Status == session.StatusFail {
			return true
		}
	}
	return strings.HasSuffix(r.Decision, " gate failed")
}

// SupersededBy is the id of the session that superseded s (the engine
// writes "superseded by session <id>" as its summary), "" otherwise.
func SupersededBy(s *session.Session) string {
	id, ok := strings.CutPrefix(s.Summary, "superseded by session ")
	if !ok || session.ValidateID(id) != nil {
		return ""
	}
	return id
}

// ReqSummary says how many of a phase's requirements have evidence:
// "2 of 3 requirements with evidence".
func ReqSummary(rs []ReqRow) string {
	n := 0
	for _, r := range rs {
		if len(r.Evidence) > 0 || r.NA {
			n++
		}
	}
	return strconv.Itoa(n) + " of " + Plural(len(rs), "requirement", "requirements") + " with evidence"
}

// EvidenceSummary counts evidence by origin: "3 pieces: 2 observed, 1 claimed".
func EvidenceSummary(ev []session.Evidence) string {
	obs, tx := 0, 0
	for _, e := range ev {
		switch {
		case e.Observed():
			obs++
		case e.Origin == session.OriginTranscript:
			tx++
		}
	}
	s := Plural(len(ev), "piece", "pieces") + ": " + strconv.Itoa(obs) + " observed (sessiongate saw it happen), "
	if tx > 0 {
		s += strconv.Itoa(tx) + " from the agent's transcript, "
	}
	return s + strconv.Itoa(len(ev)-obs-tx) + " claimed"
}

// EventClass colours an event row by what it says: refusals, blocks,
// bypasses, failures and forcing in red; passes in green. The token's own
// words (and EventIcon) carry the same meaning without colour.
func EventClass(token string) string {
	switch {
	case strings.Contains(token, ":refused"), strings.Contains(token, ":blocked"), strings.Contains(token, "bypass"),
		strings.Contains(token, ":block"), strings.HasSuffix(token, ":fail"), strings.Contains(token, "force"),
		strings.Contains(token, ":escape"), strings.Contains(token, "superseded"):
		return "ev-bad"
	case strings.HasSuffix(token, ":warn"):
		return "ev-warn"
	case strings.HasSuffix(token, ":pass"):
		return "ev-good"
	}
	return ""
}

// EventIcon is the glyph of EventClass.
func EventIcon(token string) string {
	switch EventClass(token) {
	case "ev-bad":
		return "✗"
	case "ev-warn":
		return "!"
	case "ev-good":
		return "✓"
	}
	return "·"
}

// WithValue returns options with v appended when it is set and missing,
// so a value from the URL (an older code, another protocol's phase) stays
// selectable in a dropdown.
func WithValue(options []string, v string) []string {
	if v == "" || Checked(options, v) {
		return options
	}
	return append(append([]string(nil), options...), v)
}
