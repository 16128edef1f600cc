// Package policy turns a session's event history into decisions: sequence
// rules that fire when individually allowed calls form a forbidden pattern.
// It is pure: tokens in, decisions out.
//
// Matching, precisely: an event token is a colon-separated list of segments
// ("gate:QA_VALIDATION:fail"). A pattern token matches an event token when
// each of its segments equals the event's segment at the same position or is
// "*" (exactly one segment), and the pattern token has no more segments than
// the event token; a shorter pattern token matches as a prefix, so
// "hook:pre-commit" matches "hook:pre-commit:blocked". A rule with pattern
// [p1 .. pn] fires on the current event c when the last n events, ending
// with c, match p1 .. pn in order: a contiguous run anchored at the current
// event. Only the last `window` events are read (window >= n, checked at
// load). Events the rules themselves produce ("policy:..." and
// "...:refused") are not part of the history rules match: otherwise a
// refusal would break its own run and the next identical call would pass.
// Read-only calls (get_blocked_reason, validate_gate with the gate result it
// recorded, resource reads) do not break a run either: they are skipped
// unless they match the pattern token sought, so one intervening
// get_blocked_reason cannot dodge a rule (see ReadOnlyMask).
// Anchoring is deliberate: the source design searched the whole window,
// so one forbidden run kept firing on every later call until it slid out of
// the window; here a run fires once, on the call that completes it.
package policy

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
)

// Actions.
const (
	ActionBlock = "block"
	ActionWarn  = "warn"
)

// Rule is one sequence rule.
type Rule struct {
	Name        string   `yaml:"name" json:"name"`
	Description string   `yaml:"description" json:"description"`
	Pattern     []string `yaml:"pattern" json:"pattern"`
	Window      int      `yaml:"window" json:"window"`
	Action      string   `yaml:"action" json:"action"`
	Severity    string   `yaml:"severity" json:"severity"`
}

var severities = map[string]bool{"CRITICAL": true, "HIGH": true, "MEDIUM": true, "LOW": true}

// validName: lower-case letters, digits, '_', '.', '-'; first a letter or
// digit; at most 64 bytes. (Hand-written rather than a regexp: every hook
// process links this package, and compiled regexps cost start-up time.)
func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || (c != '_' && c != '.' && c != '-')) {
			return false
		}
	}
	return true
}

// validSeg: "*" or one or more of letters, digits, '_', '.', '-'.
func validSeg(s string) bool {
	if s == "*" {
		return true
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// Validate checks a rule as loaded from the config.
func (r *Rule) Validate() error {
	if !validName(r.Name) {
		return fmt.Errorf("rule name %q: use lower-case letters, digits, '-', '_' or '.'", r.Name)
	}
	if len(r.Pattern) == 0 {
		return fmt.Errorf("rule %s: pattern is empty", r.Name)
	}
	for _, t := range r.Pattern {
		for _, seg := range strings.Split(t, ":") {
			if !validSeg(seg) {
				return fmt.Errorf("rule %s: bad token %q (segments are names or *, separated by ':')", r.Name, t)
			}
		}
	}
	if r.Window == 0 {
		r.Window = len(r.Pattern)
	}
	if r.Window < len(r.Pattern) {
		return fmt.Errorf("rule %s: window %d is shorter than its pattern (%d tokens)", r.Name, r.Window, len(r.Pattern))
	}
	switch r.Action {
	case ActionBlock, ActionWarn:
	case "":
		r.Action = ActionWarn
	default:
		return fmt.Errorf("rule %s: action must be block or warn, not %q", r.Name, r.Action)
	}
	r.Severity = strings.ToUpper(r.Severity)
	if r.Severity == "" {
		r.Severity = "MEDIUM"
	}
	if !severities[r.Severity] {
		return fmt.Errorf("rule %s: severity must be CRITICAL, HIGH, MEDIUM or LOW, not %q", r.Name, r.Severity)
	}
	return nil
}

// TokenMatch reports whether a pattern token matches an event token.
func TokenMatch(pattern, token string) bool {
	ps := strings.Split(pattern, ":")
	ts := strings.Split(token, ":")
	if len(ps) > len(ts) {
		return false
	}
	for i, p := range ps {
		if p != "*" && p != ts[i] {
			return false
		}
	}
	return true
}

// ReadOnlyCall reports whether a call token is a read-only call's: it
// looks at the session and changes nothing.
func ReadOnlyCall(token string) bool {
	return token == "tool:get_blocked_reason" || token == "tool:validate_gate" || strings.HasPrefix(token, "resource:")
}

// gateResult reports whether a token is a gate result as validate_gate
// records it ("gate:PHASE:pass|fail|skipped") and returns the phase.
func gateResult(token string) (string, bool) {
	parts := strings.Split(token, ":")
	if len(parts) != 3 || parts[0] != "gate" {
		return "", false
	}
	switch parts[2] {
	case "pass", "fail", "skipped":
		return parts[1], true
	}
	return "", false
}

// ReadOnlyMask marks the events of read-only calls in a history (oldest
// first, bookkeeping removed): the call tokens, and the gate result a
// validate_gate recorded right after its call token.
func ReadOnlyMask(history []string) []bool {
	m := make([]bool, len(history))
	for i, t := range history {
		if ReadOnlyCall(t) {
			m[i] = true
			continue
		}
		if _, ok := gateResult(t); ok && i > 0 && history[i-1] == "tool:validate_gate" {
			m[i] = true
		}
	}
	return m
}

// Fires reports whether the rule fires on the last token of history (the
// current event). history is oldest first, bookkeeping removed.
//
// The pattern is matched backwards from the current event. An event that
// matches the pattern token sought is taken; a read-only event that does
// not is skipped (it neither breaks the run nor counts toward the window);
// any other event breaks the run. A gate result that a later read-only
// validate_gate of the same phase superseded is stale: it does not count
// (a gate that failed and then passed on re-validation is not "a failed
// gate"). At most Window events that are not skipped are read.
func (r *Rule) Fires(history []string) bool {
	return r.fires(history, ReadOnlyMask(history))
}

func (r *Rule) fires(history []string, ro []bool) bool {
	n := len(r.Pattern)
	if n == 0 || len(history) == 0 {
		return false
	}
	last := len(history) - 1
	if !TokenMatch(r.Pattern[n-1], history[last]) {
		return false
	}
	window := r.Window
	if window < n {
		window = n
	}
	counted, k := 1, n-2
	revalidated := map[string]bool{} // phases a skipped validate_gate re-checked
	for j := last - 1; k >= 0 && j >= 0; j-- {
		t := history[j]
		if TokenMatch(r.Pattern[k], t) {
			if ph, ok := gateResult(t); ok && revalidated[ph] {
				return false
			}
			k--
			counted++
			continue
		}
		if !ro[j] {
			return false
		}
		if ph, ok := gateResult(t); ok {
			revalidated[ph] = true
		}
	}
	return k < 0 && counted <= window
}

// Decision is what the rules say about the current event.
type Decision struct {
	Blocked  []Rule // block rules that fired
	Warnings []Rule // warn rules that fired
}

// Allowed reports whether no block rule fired.
func (d Decision) Allowed() bool { return len(d.Blocked) == 0 }

// Bookkeeping reports whether a token was produced by the rules
// themselves or by sessiongate's own accounting (reconciled commits, a
// person accepting protected files); such events are skipped when
// matching, so they never break or complete an agent's sequence.
func Bookkeeping(token string) bool {
	return strings.HasPrefix(token, "policy:") || strings.HasSuffix(token, ":refused") ||
		strings.HasPrefix(token, "reconcile:") || strings.HasPrefix(token, "protect:")
}

// Evaluate runs every rule against history + the current token.
func Evaluate(rules []Rule, history []string, current string) Decision {
	h := make([]string, 0, len(history)+1)
	for _, t := range history {
		if !Bookkeeping(t) {
			h = append(h, t)
		}
	}
	h = append(h, current)
	ro := ReadOnlyMask(h)
	var d Decision
	for _, r := range rules {
		if r.fires(h, ro) {
			if r.Action == ActionBlock {
				d.Blocked = append(d.Blocked, r)
			} else {
				d.Warnings = append(d.Warnings, r)
			}
		}
	}
	return d
}

// MaxWindow is how many past events the rules need.
func MaxWindow(rules []Rule) int {
	m := 0
	for _, r := range rules {
		if r.Window > m {
			m = r.Window
		}
	}
	return m
}

// Defaults are the shipped rules; users disable any by name.
func Defaults() []Rule {
	return []Rule{
		{
			Name:        "repeated-forced-advance",
			Description: "a second forced advance right after a forced gate: stop forcing and satisfy the gates",
			Pattern:     []string{"gate:*:forced", "tool:advance_phase:force"},
			Window:      2, Action: ActionBlock, Severity: "HIGH",
		},
		{
			Name:        "commit-after-failed-gate",
			Description: "a commit right after a gate failed: fix what the gate reported first",
			Pattern:     []string{"gate:*:fail", "hook:pre-commit"},
			Window:      2, Action: ActionWarn, Severity: "MEDIUM",
		},
		{
			Name:        "end-after-forced-blocking-gate",
			Description: "session_end right after forcing past a BLOCKING gate: go back and satisfy it",
			Pattern:     []string{"gate:*:forced:blocking", "tool:session_end"},
			Window:      2, Action: ActionBlock, Severity: "HIGH",
		},
	}
}

// Config is the sequence_policy section of the config file.
type Config struct {
	Default   []Rule            `yaml:"default"`
	Protocols map[string][]Rule `yaml:"protocols"` // by protocol sha256, configured path or file name
	Disable   []string          `yaml:"disable"`   // names of rules (shipped or configured) to turn off
}

// Rules returns the rules for a protocol: shipped defaults, then the
// config's default rules (a rule with a shipped name replaces it), then the
// protocol's own, minus disabled names. Every rule is validated.
//
// A protocols: key names the protocol by its sha256 (with or without a
// "sha256:" prefix), its configured path (".agents/SESSION-PROTOCOL.md") or
// its file name ("SESSION-PROTOCOL.md"); names are the path and file name
// the caller knows the protocol by. Keys are compared as slash paths with
// any "./" removed. Several matching keys add their rules in key order.
func (c *Config) Rules(protocolSHA string, names ...string) ([]Rule, error) {
	byName := map[string]int{}
	var out []Rule
	add := func(rs []Rule) error {
		for _, r := range rs {
			if err := r.Validate(); err != nil {
				return err
			}
			if i, ok := byName[r.Name]; ok {
				out[i] = r
				continue
			}
			byName[r.Name] = len(out)
			out = append(out, r)
		}
		return nil
	}
	if err := add(Defaults()); err != nil {
		return nil, err
	}
	if c != nil {
		if err := add(c.Default); err != nil {
			return nil, err
		}
		keys := make([]string, 0, len(c.Protocols))
		for key := range c.Protocols {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			if ProtocolKeyMatches(key, protocolSHA, names...) {
				if err := add(c.Protocols[key]); err != nil {
					return nil, err
				}
			}
		}
		disabled := map[string]bool{}
		for _, n := range c.Disable {
			disabled[n] = true
		}
		kept := out[:0]
		for _, r := range out {
			if !disabled[r.Name] {
				kept = append(kept, r)
			}
		}
		out = kept
	}
	return out, nil
}

// ProtocolKeyMatches reports whether a sequence_policy.protocols key names
// the protocol with this sha256 and these paths or file names.
func ProtocolKeyMatches(key, sha string, names ...string) bool {
	k := strings.TrimPrefix(strings.TrimSpace(key), "sha256:")
	if k == "" {
		return false
	}
	if sha != "" && strings.EqualFold(k, sha) {
		return true
	}
	k = cleanSlash(k)
	for _, n := range names {
		if n == "" {
			continue
		}
		n = cleanSlash(n)
		if k == n || (!strings.Contains(k, "/") && k == path.Base(n)) {
			return true
		}
	}
	return false
}

func cleanSlash(p string) string {
	p = path.Clean(strings.ReplaceAll(p, "\\", "/"))
	return strings.TrimPrefix(p, "./")
}

// ErrBlocked is wrapped by engine errors for a call refused by a rule.
var ErrBlocked = errors.New("refused by sequence rule")
