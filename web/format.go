package web

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// Formatting helpers the components call. Times are shown in UTC so every
// reader of a shared link sees the same text.

const timeLayout = "2006-01-02 15:04:05 UTC"

// FormatTime renders t, or an em dash for the zero time.
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format(timeLayout)
}

// ISOTime is t for a <time datetime> attribute.
func ISOTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// FormatDuration renders d briefly: 850ms, 12.3s, 4m05s, 2h07m, 3d04h.
func FormatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "—"
	case d < time.Millisecond:
		return "<1ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24)
}

// Between is the duration from a to b, 0 when either is unknown.
func Between(a, b time.Time) time.Duration {
	if a.IsZero() || b.IsZero() || b.Before(a) {
		return 0
	}
	return b.Sub(a)
}

// ShortID is the first block of a session id, enough to tell sessions apart
// on screen (the full id is in the link and the title).
func ShortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// ShortSHA is the first 12 hex digits of a hash or commit id.
func ShortSHA(s string) string { return shorten.SHA(s) }

// OrDash returns s, or an em dash when it is empty.
func OrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// Plural renders "1 session" / "3 sessions".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Itoa is strconv.Itoa for templates.
func Itoa(n int) string { return strconv.Itoa(n) }

// Itoa64 is strconv.FormatInt for templates.
func Itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// SessionURL links to a session page.
func SessionURL(id string) templ.SafeURL {
	return templ.SafeURL("/sessions/" + url.PathEscape(id))
}

// ProtocolURL links to the protocol view of one stored version.
func ProtocolURL(sha string) templ.SafeURL {
	if sha == "" {
		return "/protocol"
	}
	return templ.SafeURL("/protocol?sha=" + url.QueryEscape(sha))
}

// SessionsURL links to the sessions list with one filter set.
func SessionsURL(key, value string) templ.SafeURL {
	if key == "" {
		return "/sessions"
	}
	return templ.SafeURL("/sessions?" + url.Values{key: {value}}.Encode())
}

// ViolationsURL links to the violations list with one filter set.
func ViolationsURL(key, value string) templ.SafeURL {
	if key == "" {
		return "/violations"
	}
	return templ.SafeURL("/violations?" + url.Values{key: {value}}.Encode())
}

// StateClass is the CSS class of a session state badge.
func StateClass(state session.State) string {
	switch state {
	case session.StateInit, session.StateWorking, session.StateEnding:
		return "badge st-active"
	case session.StateComplete:
		return "badge st-complete"
	case session.StateAbandoned:
		return "badge st-abandoned"
	case session.StateTerminated:
		return "badge st-terminated"
	}
	return "badge"
}

// StateIcon is a glyph that carries the state besides the colour.
func StateIcon(state session.State) string {
	switch state {
	case session.StateInit, session.StateWorking, session.StateEnding:
		return "●"
	case session.StateComplete:
		return "✓"
	case session.StateAbandoned:
		return "◌"
	case session.StateTerminated:
		return "■"
	}
	return "?"
}

// PhaseClass is the CSS class of a phase status badge.
func PhaseClass(status session.PhaseStatus) string {
	switch status {
	case session.PhasePassed:
		return "badge ph-passed"
	case session.PhaseFailed:
		return "badge ph-failed"
	case session.PhaseForced:
		return "badge ph-forced"
	case session.PhaseSkipped:
		return "badge ph-skipped"
	}
	return "badge ph-pending"
}

// PhaseIcon is the glyph of a phase status.
func PhaseIcon(status session.PhaseStatus) string {
	switch status {
	case session.PhasePassed:
		return "✓"
	case session.PhaseFailed:
		return "✗"
	case session.PhaseForced:
		return "!"
	case session.PhaseSkipped:
		return "↷"
	}
	return "○"
}

// CheckClass is the CSS class of a check result status.
func CheckClass(status session.GateStatus) string {
	switch status {
	case session.StatusPass:
		return "badge ph-passed"
	case session.StatusFail:
		return "badge ph-failed"
	}
	return "badge ph-skipped"
}

// SeverityClass is the CSS class of a severity badge.
func SeverityClass(sev string) string {
	switch sev {
	case session.SeverityCritical:
		return "badge sev-critical"
	case session.SeverityHigh:
		return "badge sev-high"
	case session.SeverityMedium:
		return "badge sev-medium"
	case session.SeverityLow:
		return "badge sev-low"
	}
	return "badge"
}

// GateClass is the CSS class of a gate level badge.
func GateClass(gate protocolspec.GateLevel) string {
	switch gate {
	case protocolspec.GateBlocking:
		return "badge gate-blocking"
	case protocolspec.GateRequired:
		return "badge gate-required"
	}
	return "badge gate-soft"
}

// DescribeCheck says in words what a check needs.
func DescribeCheck(phase string, c protocolspec.Check) string {
	switch c.Kind {
	case protocolspec.CheckFileExists:
		return "a file matching " + c.Arg
	case protocolspec.CheckChangedSinceStart:
		return c.Arg + " changed since the session started"
	case protocolspec.CheckContentHash:
		return "content_hash evidence for " + c.Arg
	case protocolspec.CheckCommand:
		return "command passes: " + c.Arg
	case protocolspec.CheckCommitSinceStart:
		return "a commit since the session started"
	case protocolspec.CheckCleanWorktree:
		return "a clean work tree"
	case protocolspec.CheckEvidence:
		return c.Arg + " evidence for " + phase
	case protocolspec.CheckMustEvidence:
		return "one piece of evidence per MUST requirement of " + phase
	}
	return strings.TrimSpace(string(c.Kind) + " " + c.Arg)
}

// SectionTitle names a protocol section.
func SectionTitle(section string) string {
	switch section {
	case protocolspec.SectionStart:
		return "Session start"
	case protocolspec.SectionEnd:
		return "Session end"
	}
	return section
}

// Percent renders part/whole as "87%", "—" when whole is 0.
func Percent(part, whole int) string {
	if whole == 0 {
		return "—"
	}
	return strconv.Itoa(int(float64(part)*100/float64(whole)+0.5)) + "%"
}

// Checked reports whether v is in set, for checkboxes.
func Checked[T ~string](set []T, v T) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// AllStates lists the session states in filter order.
var AllStates = []session.State{session.StateInit, session.StateWorking, session.StateEnding,
	session.StateComplete, session.StateAbandoned, session.StateTerminated}

// AllSeverities lists the severities from worst to mildest.
var AllSeverities = []string{session.SeverityCritical, session.SeverityHigh, session.SeverityMedium, session.SeverityLow}

// KnownCodes are violation codes the engine and hooks record, offered as
// suggestions in the code filter.
var KnownCodes = []string{"FORCED_ADVANCE", session.CodeBypass, "SEQUENCE_RULE", session.CodeEndProtocolSkipped,
	session.CodeEscapeHatch, session.CodeProtectedChange, session.CodeReviewFlag}

// Truncate shortens s to at most n runes, marking the cut with an ellipsis.
func Truncate(s string, n int) string { return shorten.Runes(s, n) }

func reqClass(level string) string {
	switch level {
	case protocolspec.LevelMust, protocolspec.LevelMustNot:
		return "must"
	case protocolspec.LevelShould, protocolspec.LevelShouldNot:
		return "should"
	}
	return "may"
}

// OriginClass is the badge class of observed evidence: green when the
// command exited 0, red when it failed, grey when its exit is unknown.
func OriginClass(e session.Evidence) string {
	switch {
	case e.Succeeded():
		return "badge or-observed"
	case e.ExitCode != nil && *e.ExitCode > 0:
		return "badge or-observed-failed"
	}
	return "badge or-observed-unknown"
}

// OriginTitle explains an observed badge.
func OriginTitle(e session.Evidence) string {
	return "sessiongate saw this command run (" + OrDash(e.Source) + "): " + ObservedDetail(e)
}

// TranscriptTitle explains a transcript badge: whose transcript and what
// it shows.
func TranscriptTitle(e session.Evidence) string {
	what := e.Command
	if what == "" {
		what = e.Ref
	}
	return "the agent's own transcript (" + OrDash(e.Source) + ") shows this tool call: " + OrDash(what)
}

// ObservedDetail is an observed command's exit code and duration.
func ObservedDetail(e session.Evidence) string {
	exit := "exit unknown"
	if e.ExitCode != nil && *e.ExitCode >= 0 {
		exit = "exit " + strconv.Itoa(*e.ExitCode)
	}
	if e.Duration > 0 {
		exit += ", " + e.Duration.Round(time.Millisecond).String()
	}
	return exit
}

// Date prints a day as 2006-01-02 (UTC).
func Date(t time.Time) string { return t.UTC().Format("2006-01-02") }
