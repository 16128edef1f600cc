package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/sessiongate/sessiongate/internal/shorten"
)

// Formats verify writes besides its text report.
var Formats = []string{"text", "json", "github", "gitlab", "sarif", "junit", "markdown"}

// Write renders the report in format (one of Formats but text).
func Write(w io.Writer, rep *Report, format string) error {
	switch format {
	case "json":
		return writeIndented(w, rep)
	case "github":
		return GitHubAnnotations(w, rep)
	case "gitlab":
		return writeIndented(w, CodeQuality(rep))
	case "sarif":
		return writeIndented(w, SARIF(rep, ""))
	case "junit":
		return JUnit(w, rep)
	case "markdown":
		return Markdown(w, rep)
	}
	return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ghEscape escapes a workflow command's message (%, CR, LF) and, with
// prop, its property values (also : and ,), as the runner reads them.
func ghEscape(s string, prop bool) string {
	r := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	s = r.Replace(s)
	if prop {
		s = strings.NewReplacer(":", "%3A", ",", "%2C").Replace(s)
	}
	return s
}

// GitHubAnnotations writes one ::error or ::warning workflow command per
// commit that failed or warned, on the commit's first changed file, and
// one for each failed re-run.
func GitHubAnnotations(w io.Writer, rep *Report) error {
	for _, c := range rep.Commits {
		level := map[string]string{"fail": "error", "warn": "warning"}[c.Status]
		if level == "" {
			continue
		}
		props := "title=" + ghEscape("sessiongate verify "+shorten.SHA(c.SHA)+": "+shorten.Line(c.Subject, 60, "…"), true)
		if c.File != "" {
			props = "file=" + ghEscape(c.File, true) + ",line=1," + props
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", level, props, ghEscape(strings.Join(c.Problems, "\n"), false)); err != nil {
			return err
		}
	}
	for _, x := range rep.Rerun {
		// Every gate re-run shows on the run: a failure as an error, a
		// pass or a skip as a notice saying which.
		level, msg := "notice", fmt.Sprintf("%s: %s (from %s)", x.Status, x.Command, x.Source)
		if x.Status == "fail" {
			level, msg = "error", fmt.Sprintf("%s exited %d (from %s)\n%s", x.Command, x.ExitCode, x.Source, x.Output)
		}
		if x.Note != "" {
			msg += "\n" + x.Note
		}
		if _, err := fmt.Fprintf(w, "::%s title=%s::%s\n", level, ghEscape("sessiongate verify --rerun "+x.Phase, true), ghEscape(msg, false)); err != nil {
			return err
		}
	}
	return nil
}

// Markdown is the job summary (and a pull request comment): the verdict,
// how the range was chosen, the sessions behind it and each commit.
func Markdown(w io.Writer, rep *Report) error {
	var b strings.Builder
	verdict := "passed"
	if !rep.OK {
		verdict = "failed"
	}
	fmt.Fprintf(&b, "### sessiongate verify %s: %d commit(s) in `%s`\n\n", verdict, len(rep.Commits), rep.Range)
	fmt.Fprintf(&b, "- Range: %s\n", mdText(rep.How))
	if rep.Baseline != "" {
		fmt.Fprintf(&b, "- Trusted: %s\n", mdText(rep.Baseline))
	}
	for _, f := range rep.Fetched {
		fmt.Fprintf(&b, "- Fetched: `%s`\n", f)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "- Note: %s\n", mdText(n))
	}
	if len(rep.Sessions) > 0 {
		b.WriteString("\n| session | agent / user | protocol | gates | violations | forced advances |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, s := range rep.Sessions {
			fmt.Fprintf(&b, "| `%.8s` | %s | `%.12s` | %s | %d | %d |\n", s.ID, mdText(s.User), s.Protocol, mdText(s.Gates), s.Violations, s.Forced)
		}
	}
	b.WriteString("\n| | commit | subject | session | problems |\n| --- | --- | --- | --- | --- |\n")
	for _, c := range rep.Commits {
		icon := map[string]string{"ok": "✅", "warn": "⚠️", "fail": "❌"}[c.Status]
		fmt.Fprintf(&b, "| %s | `%s` | %s | `%.8s` | %s |\n", icon, shorten.SHA(c.SHA), mdText(shorten.Line(c.Subject, 72, "…")), c.SessionID, mdText(strings.Join(c.Problems, "; ")))
	}
	for _, x := range rep.Rerun {
		fmt.Fprintf(&b, "\n- Re-run %s `%s` (%s): **%s**, exit %d, %.1fs\n", x.Phase, x.Command, mdText(x.Source), x.Status, x.ExitCode, x.Seconds)
		if x.Note != "" {
			fmt.Fprintf(&b, "  %s\n", mdText(x.Note))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdText keeps a value inside one table cell.
func mdText(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}

// fingerprint names a finding stably across runs: commit and problem.
func fingerprint(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// codeQualityIssue is one GitLab Code Quality finding.
type codeQualityIssue struct {
	Description string `json:"description"`
	CheckName   string `json:"check_name"`
	Fingerprint string `json:"fingerprint"`
	Severity    string `json:"severity"`
	Location    struct {
		Path  string `json:"path"`
		Lines struct {
			Begin int `json:"begin"`
		} `json:"lines"`
	} `json:"location"`
}

// CodeQuality is the report as a GitLab Code Quality artifact.
func CodeQuality(rep *Report) []codeQualityIssue {
	out := []codeQualityIssue{}
	for _, c := range rep.Commits {
		sev := map[string]string{"fail": "major", "warn": "minor"}[c.Status]
		if sev == "" {
			continue
		}
		for _, p := range c.Problems {
			var i codeQualityIssue
			i.Description = fmt.Sprintf("commit %s (%s): %s", shorten.SHA(c.SHA), shorten.Line(c.Subject, 60, "…"), p)
			i.CheckName, i.Severity = "sessiongate-verify", sev
			i.Fingerprint = fingerprint(c.SHA, p)
			i.Location.Path, i.Location.Lines.Begin = c.File, 1
			if i.Location.Path == "" {
				i.Location.Path = "."
			}
			out = append(out, i)
		}
	}
	for _, x := range rep.Rerun {
		if x.Status == "fail" {
			var i codeQualityIssue
			i.Description = fmt.Sprintf("re-run of %s failed: %s exited %d", x.Phase, x.Command, x.ExitCode)
			i.CheckName, i.Severity, i.Fingerprint = "sessiongate-verify-rerun", "major", fingerprint(rep.Tip, x.Command)
			i.Location.Path, i.Location.Lines.Begin = ".", 1
			out = append(out, i)
		}
	}
	return out
}

// SARIF 2.1.0, the subset code scanning reads.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool struct {
		Driver struct {
			Name           string      `json:"name"`
			InformationURI string      `json:"informationUri,omitempty"`
			Version        string      `json:"version,omitempty"`
			Rules          []sarifRule `json:"rules"`
		} `json:"driver"`
	} `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name,omitempty"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Kind                string            `json:"kind,omitempty"` // "" = fail; pass, notApplicable
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine int `json:"startLine"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

// SARIF is the report as a SARIF 2.1.0 log: one result per problem of a
// failed or warned commit, and per failed re-run.
func SARIF(rep *Report, version string) *sarifLog {
	run := sarifRun{Results: []sarifResult{}}
	run.Tool.Driver.Name = "sessiongate verify"
	run.Tool.Driver.InformationURI = "https://github.com/sessiongate/sessiongate"
	run.Tool.Driver.Version = version
	run.Tool.Driver.Rules = []sarifRule{
		{ID: "SG001", Name: "SessionCommit", ShortDescription: sarifMessage{"A commit must be made in a recorded session that passed its gates"}},
		{ID: "SG002", Name: "Rerun", ShortDescription: sarifMessage{"The protocol's command gates pass when re-run in CI"}},
	}
	for _, c := range rep.Commits {
		level := map[string]string{"fail": "error", "warn": "warning"}[c.Status]
		if level == "" {
			continue
		}
		for _, p := range c.Problems {
			r := sarifResult{RuleID: "SG001", RuleIndex: 0, Level: level,
				Message:             sarifMessage{fmt.Sprintf("commit %s (%s): %s", shorten.SHA(c.SHA), c.Subject, p)},
				PartialFingerprints: map[string]string{"sessiongateCommitProblem/v1": fingerprint(c.SHA, p)}}
			if c.File != "" {
				var l sarifLocation
				l.PhysicalLocation.ArtifactLocation.URI = c.File
				l.PhysicalLocation.Region.StartLine = 1
				r.Locations = []sarifLocation{l}
			}
			run.Results = append(run.Results, r)
		}
	}
	for _, x := range rep.Rerun {
		// A pass and a skip are results too (kind pass / notApplicable),
		// so the log says which gates ran.
		r := sarifResult{RuleID: "SG002", RuleIndex: 1, Level: "error",
			Message:             sarifMessage{fmt.Sprintf("%s: %s exited %d (from %s)", x.Phase, x.Command, x.ExitCode, x.Source)},
			PartialFingerprints: map[string]string{"sessiongateRerun/v1": fingerprint(rep.Tip, x.Command)}}
		switch x.Status {
		case "ok":
			r.Kind, r.Level, r.Message.Text = "pass", "none", fmt.Sprintf("%s: %s passed (from %s)", x.Phase, x.Command, x.Source)
		case "skipped":
			r.Kind, r.Level, r.Message.Text = "notApplicable", "none", fmt.Sprintf("%s: %s skipped: %s (from %s)", x.Phase, x.Command, x.Note, x.Source)
		}
		run.Results = append(run.Results, r)
	}
	return &sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
}

// JUnit writes one test case per commit (and per re-run), for CI test
// widgets: a failed commit is a failure, a warned one passes with its
// problems as system-out.
func JUnit(w io.Writer, rep *Report) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type tcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Skipped   *skipped `xml:"skipped,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"`
	}
	type suite struct {
		XMLName  xml.Name `xml:"testsuite"`
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Skipped  int      `xml:"skipped,attr"`
		Cases    []tcase  `xml:"testcase"`
	}
	s := suite{Name: "sessiongate verify " + rep.Range}
	for _, c := range rep.Commits {
		tc := tcase{Name: shorten.SHA(c.SHA) + " " + c.Subject, Classname: "sessiongate.verify.commit", Time: "0"}
		switch c.Status {
		case "fail":
			tc.Failure = &failure{Message: strings.Join(c.Problems, "; "), Text: strings.Join(c.Problems, "\n")}
			s.Failures++
		default:
			tc.SystemOut = strings.Join(c.Problems, "\n")
		}
		s.Cases = append(s.Cases, tc)
	}
	for _, x := range rep.Rerun {
		tc := tcase{Name: x.Phase + ": " + x.Command, Classname: "sessiongate.verify.rerun", Time: fmt.Sprintf("%.3f", x.Seconds), SystemOut: strings.TrimSpace(x.Note + "\n" + x.Output)}
		switch x.Status {
		case "fail":
			tc.Failure = &failure{Message: fmt.Sprintf("exit %d", x.ExitCode), Text: x.Output}
			s.Failures++
		case "skipped":
			tc.Skipped = &skipped{Message: x.Note}
			s.Skipped++
		}
		s.Cases = append(s.Cases, tc)
	}
	s.Tests = len(s.Cases)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
