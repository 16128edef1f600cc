package protocolspec

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Gate annotations live in HTML comments in a phase body:
//
//	<!-- gate: KIND [ARG] [OPTION=VALUE ...] -->
//	<!-- gate: id=UPPER_SNAKE -->
//
// A comment whose text starts with "gate:" is a gate comment; each of its
// non-blank lines must be one "gate:" directive. docs/protocol.md has the
// full grammar.

// checkArity says how many arguments each kind takes.
var checkArity = map[CheckKind]int{
	CheckFileExists:        1,
	CheckChangedSinceStart: 1,
	CheckContentHash:       1,
	CheckCommand:           1,
	CheckCommitSinceStart:  0,
	CheckCleanWorktree:     0,
	CheckEvidence:          1,
	CheckMustEvidence:      0,
	CheckUnchanged:         1,
	CheckNotDefaultBranch:  0,
	CheckNoPlaceholders:    1,
	CheckCommitMessage:     1,
	CheckHasSection:        1,
	CheckNoHookBypass:      0,
}

var checkKinds = []CheckKind{
	CheckFileExists, CheckChangedSinceStart, CheckContentHash, CheckCommand,
	CheckCommitSinceStart, CheckCleanWorktree, CheckEvidence, CheckMustEvidence,
	CheckUnchanged, CheckNotDefaultBranch, CheckNoPlaceholders, CheckCommitMessage, CheckHasSection, CheckNoHookBypass,
}

// argHint names what a kind's argument is, for error messages.
var argHint = map[CheckKind]string{
	CheckFileExists:        "a path or glob",
	CheckChangedSinceStart: "a path or glob",
	CheckContentHash:       "a path",
	CheckCommand:           "a command line",
	CheckEvidence:          "an evidence kind",
	CheckUnchanged:         "a path or glob",
	CheckNoPlaceholders:    "a path or glob",
	CheckCommitMessage:     "a commit convention: conventional",
	CheckHasSection:        "a path or glob, and section=\"Heading\"",
}

// commitConventions are the commit message conventions commit_message knows.
var commitConventions = []string{"conventional"}

// Evidence kinds: what a piece of evidence is. The engine records these
// (session.Evidence* are these names); a gate's evidence check names one.
const (
	EvidenceToolOutput  = "tool_output"
	EvidenceFilePath    = "file_path"
	EvidenceCommitSHA   = "commit_sha"
	EvidenceContentHash = "content_hash"
	EvidenceManual      = "manual"
)

// evidenceKinds are the kinds a gate may name: a typo would make a gate
// impossible to pass, so it is refused.
var evidenceKinds = []string{EvidenceToolOutput, EvidenceFilePath, EvidenceCommitSHA, EvidenceContentHash, EvidenceManual}

// Conditions are the built-in conditions when= knows; the first is the
// docs condition (docmention).
var Conditions = []string{"docs_affected", CondFeatureBranch}

// gateHooks are the git hooks that can also run a check before git proceeds.
var gateHooks = []string{"pre-commit", "commit-msg", "pre-push"}

// directive is one parsed "gate:" line.
type directive struct {
	check   *Check // nil for an option-only directive (gate: id=X)
	id      string
	noInfer bool // infer=off
	line    int
}

type lineErr struct {
	line int
	msg  string
}

// gateComments finds the HTML comments in raw HTML text and parses the
// gate comments among them. line maps an index in raw to a document line.
func gateComments(raw []byte, line func(i int) int) (dirs []directive, errs []lineErr) {
	for i := 0; ; {
		open := bytes.Index(raw[i:], []byte("<!--"))
		if open < 0 {
			return dirs, errs
		}
		open += i + 4
		end := bytes.Index(raw[open:], []byte("-->"))
		if end < 0 {
			end = len(raw)
		} else {
			end += open
		}
		d, e := gateComment(raw[open:end], func(j int) int { return line(open + j) })
		dirs, errs = append(dirs, d...), append(errs, e...)
		if end >= len(raw) {
			return dirs, errs
		}
		i = end + 3
	}
}

func hasGatePrefix(s []byte) bool {
	return len(s) >= 5 && strings.EqualFold(string(s[:5]), "gate:")
}

// gateComment parses one comment body (between "<!--" and "-->").
func gateComment(body []byte, line func(i int) int) (dirs []directive, errs []lineErr) {
	if !hasGatePrefix(bytes.TrimLeft(body, " \t\n")) {
		return nil, nil // an ordinary comment
	}
	for at := 0; at <= len(body); {
		nl := bytes.IndexByte(body[at:], '\n')
		if nl < 0 {
			nl = len(body) - at
		}
		raw := body[at : at+nl]
		ln := line(at + len(raw) - len(bytes.TrimLeft(raw, " \t")))
		at += nl + 1
		t := bytes.TrimSpace(raw)
		if len(t) == 0 {
			continue
		}
		if !hasGatePrefix(t) {
			errs = append(errs, lineErr{ln, fmt.Sprintf("gate comment: line %q does not start with \"gate:\" (one directive per line)", t)})
			continue
		}
		d, err := parseDirective(string(t[5:]))
		if err != nil {
			errs = append(errs, lineErr{ln, "gate annotation: " + err.Error()})
			continue
		}
		d.line = ln
		if d.check != nil {
			d.check.Line = ln
		}
		dirs = append(dirs, d)
	}
	return dirs, errs
}

type gateToken struct {
	name  string // option name; "" for a plain argument
	value string
	bare  bool // a bare (unquoted) plain word
}

// tokenize splits a directive into words, "quoted strings" (with \" and \\
// escapes) and name=value options (value bare or quoted).
func tokenize(s string) ([]gateToken, error) {
	var out []gateToken
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		if s[i] == '"' {
			v, n, err := quoted(s[i:])
			if err != nil {
				return nil, err
			}
			out = append(out, gateToken{value: v})
			i += n
			if i < len(s) && s[i] != ' ' && s[i] != '\t' {
				return nil, fmt.Errorf("missing space after quoted argument %q", v)
			}
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '=' && s[j] != '"' {
			j++
		}
		word := s[i:j]
		switch {
		case j < len(s) && s[j] == '=':
			if word == "" {
				return nil, fmt.Errorf("option with no name at %q", s[i:])
			}
			j++
			var v string
			if j < len(s) && s[j] == '"' {
				q, n, err := quoted(s[j:])
				if err != nil {
					return nil, err
				}
				v, j = q, j+n
			} else {
				k := j
				for k < len(s) && s[k] != ' ' && s[k] != '\t' {
					k++
				}
				v, j = s[j:k], k
				if strings.ContainsAny(v, `"=`) {
					return nil, fmt.Errorf("option %s: quote the value %q", word, v)
				}
			}
			if j < len(s) && s[j] != ' ' && s[j] != '\t' {
				return nil, fmt.Errorf("missing space after option %s", word)
			}
			out = append(out, gateToken{name: word, value: v})
		case j < len(s) && s[j] == '"':
			return nil, fmt.Errorf("unexpected quote in %q (put the whole argument in quotes)", s[i:])
		default:
			out = append(out, gateToken{value: word, bare: true})
		}
		i = j
	}
}

// quoted reads a "..." string at the start of s; \" and \\ are escapes,
// any other backslash is kept (commands often hold regex backslashes).
func quoted(s string) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			if i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
				i++
				b.WriteByte(s[i])
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated quoted string %s", s)
}

// parseDirective parses the text after "gate:".
func parseDirective(s string) (directive, error) {
	toks, err := tokenize(s)
	if err != nil {
		return directive{}, err
	}
	if len(toks) == 0 {
		return directive{}, fmt.Errorf("empty directive: want a check kind (%s) or id=NAME", kindList())
	}
	var d directive
	var kind CheckKind
	var args []string
	if toks[0].name == "" {
		if !toks[0].bare {
			return d, fmt.Errorf("directive starts with quoted %q: want a check kind first (%s)", toks[0].value, kindList())
		}
		kind = CheckKind(toks[0].value)
		if _, ok := checkArity[kind]; !ok {
			return d, fmt.Errorf("unknown check kind %q (want one of %s)", kind, kindList())
		}
		toks = toks[1:]
	}
	seen := map[string]bool{}
	var timeout time.Duration
	var hooks []string
	var proves, section string
	var fresh, observed, freshSet bool
	var when, whenChanged string
	for _, t := range toks {
		if t.name == "" {
			if kind == "" {
				return d, fmt.Errorf("argument %q with no check kind", t.value)
			}
			args = append(args, t.value)
			continue
		}
		if seen[t.name] {
			return d, fmt.Errorf("option %s given twice", t.name)
		}
		seen[t.name] = true
		switch t.name {
		case "timeout":
			if kind != CheckCommand {
				return d, fmt.Errorf("timeout= applies only to command checks")
			}
			v, err := time.ParseDuration(t.value)
			if err != nil || v <= 0 {
				return d, fmt.Errorf("bad timeout %q: want a positive Go duration such as 90s or 2m", t.value)
			}
			timeout = v
		case "hooks":
			if kind == "" {
				return d, fmt.Errorf("hooks= needs a check kind")
			}
			for _, h := range strings.Split(t.value, ",") {
				h = strings.TrimSpace(h)
				if !slices.Contains(gateHooks, h) {
					return d, fmt.Errorf("unknown hook %q in hooks= (want %s, comma-separated)", h, strings.Join(gateHooks, ", "))
				}
				if !slices.Contains(hooks, h) {
					hooks = append(hooks, h)
				}
			}
		case "proves":
			if kind != CheckCommand {
				return d, fmt.Errorf("proves= applies only to command checks")
			}
			if _, err := regexp.Compile(t.value); err != nil || t.value == "" {
				return d, fmt.Errorf("bad proves= %q: want a regular expression the command's output matches when it checked something", t.value)
			}
			proves = t.value
		case "section":
			if kind != CheckHasSection {
				return d, fmt.Errorf("section= applies only to has_section checks")
			}
			if strings.TrimSpace(t.value) == "" {
				return d, fmt.Errorf("section= is empty: name the heading, such as section=\"Protocol Compliance\"")
			}
			section = strings.TrimSpace(t.value)
		case "infer":
			switch t.value {
			case "off":
				d.noInfer = true
			case "on":
			default:
				return d, fmt.Errorf("bad infer=%q: want off (no check inferred from this phase's sentences) or on", t.value)
			}
		case "fresh":
			if kind != CheckFileExists {
				return d, fmt.Errorf("fresh= applies only to file_exists checks")
			}
			switch t.value {
			case "true":
				fresh = true
			case "false":
			default:
				return d, fmt.Errorf("bad fresh=%q: want true (only a file created or changed in the session counts) or false", t.value)
			}
			freshSet = true
		case "origin":
			if kind != CheckEvidence && kind != CheckMustEvidence {
				return d, fmt.Errorf("origin= applies only to evidence and must_evidence checks")
			}
			switch t.value {
			case "observed":
				observed = true
			case "any":
			default:
				return d, fmt.Errorf("bad origin=%q: want observed (only commands sessiongate saw run count) or any", t.value)
			}
		case "when":
			if kind == "" {
				return d, fmt.Errorf("when= needs a check kind")
			}
			if t.value != Conditions[0] {
				return d, fmt.Errorf("unknown condition when=%q (want %s: the session changed a flag, environment variable, exported identifier or file a tracked doc mentions)", t.value, strings.Join(Conditions, ", "))
			}
			when = t.value
		case "when_changed":
			if kind == "" {
				return d, fmt.Errorf("when_changed= needs a check kind")
			}
			for _, g := range strings.Split(t.value, ",") {
				if g = strings.TrimSpace(g); g == "" || strings.HasPrefix(g, "/") || strings.Contains("/"+g+"/", "/../") {
					return d, fmt.Errorf("bad when_changed=%q: want repository-relative globs separated by commas, such as \"cmd/**,*.go\"", t.value)
				}
			}
			whenChanged = t.value
		case "id":
			if !idRE().MatchString(t.value) {
				return d, fmt.Errorf("bad id %q: want UPPER_SNAKE_CASE such as QA_VALIDATION", t.value)
			}
			d.id = t.value
		default:
			return d, fmt.Errorf("unknown option %q (want timeout=, hooks=, proves=, section=, infer=, fresh=, origin=, when=, when_changed= or id=)", t.name)
		}
	}
	if kind == "" {
		return d, nil
	}
	want := checkArity[kind]
	switch {
	case len(args) < want:
		return d, fmt.Errorf("%s needs one argument (%s)", kind, argHint[kind])
	case len(args) > want && want == 0:
		return d, fmt.Errorf("%s takes no argument, got %q", kind, args[0])
	case len(args) > want:
		return d, fmt.Errorf("%s takes one argument, got %d (quote an argument that holds spaces)", kind, len(args))
	}
	if kind == CheckHasSection && section == "" {
		return d, fmt.Errorf("has_section needs section=\"Heading\": the heading the files must have")
	}
	c := &Check{Kind: kind, Timeout: Duration(timeout), Hooks: hooks, Proves: proves, Section: section, Fresh: fresh, Observed: observed, When: when, WhenChanged: whenChanged, freshSet: freshSet}
	if want == 1 {
		c.Arg = args[0]
		if strings.TrimSpace(c.Arg) == "" {
			return d, fmt.Errorf("%s: empty argument", kind)
		}
		if kind == CheckCommitMessage && !slices.Contains(commitConventions, c.Arg) {
			return d, fmt.Errorf("unknown commit convention %q (want one of %s)", c.Arg, strings.Join(commitConventions, ", "))
		}
		if kind == CheckEvidence && !slices.Contains(evidenceKinds, c.Arg) {
			return d, fmt.Errorf("unknown evidence kind %q (want one of %s)", c.Arg, strings.Join(evidenceKinds, ", "))
		}
	}
	d.check = c
	return d, nil
}

func kindList() string {
	names := make([]string, len(checkKinds))
	for i, k := range checkKinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
