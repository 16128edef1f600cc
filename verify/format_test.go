package verify_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sessiongate/sessiongate/verify"
)

func sampleReport() *verify.Report {
	return &verify.Report{Range: "1a2b3c4d5e6f..6f5e4d3c2b1a", How: "GitHub pull_request #4: the pull request's own commits", Tip: strings.Repeat("6f", 20),
		Commits: []verify.CommitReport{
			{SHA: strings.Repeat("a1", 20), Subject: "honest | work", SessionID: "3f2a0000-0000-4000-8000-000000000000", Status: "ok", File: "a.go", Problems: []string{}},
			{SHA: strings.Repeat("b2", 20), Subject: "sneak, past: hooks", Status: "fail", File: "dir/b c.go",
				Problems: []string{"no Session-Id trailer: the commit was made outside a session\nsecond line 100%"}},
			{SHA: strings.Repeat("c3", 20), Subject: "history rewritten", Status: "warn", Problems: []string{"trailers copied: ..."}},
		},
		Rerun: []verify.RerunResult{{Phase: "QA_VALIDATION", Command: "go test ./...", Source: "sessiongate.yaml at 1a2b3c4d5e6f", Status: "fail", ExitCode: 1, Output: "FAIL x"},
			{Phase: "QUALITY", Command: "npx markdownlint-cli2 {changed:*.md}", Source: "SESSION-PROTOCOL.md at 1a2b3c4d5e6f, line 9", Status: "ok", Files: 2},
			{Phase: "DOCS", Command: "vale {changed:*.rst}", Source: "SESSION-PROTOCOL.md at 1a2b3c4d5e6f, line 12", Status: "skipped", ExitCode: -1, Note: "no file changed in the range matches"}},
		Sessions: []verify.SessionSummary{{ID: "3f2a0000-0000-4000-8000-000000000000", User: "Ann <ann@example.invalid>", Protocol: strings.Repeat("e", 64), State: "COMPLETE", Gates: "6/6 passed"}},
	}
}

// SARIF is checked against a SARIF 2.1.0 schema subset written for the
// tests (testdata/; the official schema is not vendored), with
// additionalProperties false so a misspelt property fails.
func TestSARIFValidates(t *testing.T) {
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join("testdata", "sarif-2.1.0-subset.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		rep     *verify.Report
		results int
	}{
		{"failures", sampleReport(), 5}, // 2 commit problems, 3 re-runs (a pass and a skip as kind pass / notApplicable)
		{"clean", &verify.Report{Range: "a..b", OK: true, Commits: []verify.CommitReport{{SHA: strings.Repeat("a", 40), Status: "ok"}}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := verify.Write(&buf, tc.rep, "sarif"); err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Fatalf("SARIF does not validate: %v\n%s", err, buf.String())
			}
			var log struct {
				Runs []struct{ Results []any }
			}
			if err := json.Unmarshal(buf.Bytes(), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != tc.results {
				t.Fatalf("want %d results: %v\n%s", tc.results, err, buf.String())
			}
		})
	}
	// The schema is strict enough to catch a broken log.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":"2.1.0","runs":[{"tool":{"driver":{}},"results":[{"level":"fatal"}]}]}`))
	if sch.Validate(bad) == nil {
		t.Fatal("the schema accepts a log without a driver name, message or a valid level")
	}
}

func TestFormats(t *testing.T) {
	rep := sampleReport()
	out := func(format string) string {
		var buf bytes.Buffer
		if err := verify.Write(&buf, rep, format); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	t.Run("github annotations", func(t *testing.T) {
		got := out("github")
		lines := strings.Split(strings.TrimSpace(got), "\n")
		if len(lines) != 5 {
			t.Fatalf("want 5 workflow commands (fail, warn, 3 re-runs), got:\n%s", got)
		}
		for _, want := range []string{
			"::error file=dir/b c.go,line=1,title=sessiongate verify b2b2b2b2b2b2%3A sneak%2C past%3A hooks::no Session-Id trailer: the commit was made outside a session%0Asecond line 100%25",
			"::warning title=sessiongate verify c3c3c3c3c3c3%3A history rewritten::trailers copied: ...",
			"::error title=sessiongate verify --rerun QA_VALIDATION::go test ./... exited 1",
			"::notice title=sessiongate verify --rerun QUALITY::ok: npx markdownlint-cli2 {changed:*.md}",
			"::notice title=sessiongate verify --rerun DOCS::skipped: vale {changed:*.rst}",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in:\n%s", want, got)
			}
		}
	})
	t.Run("junit", func(t *testing.T) {
		var s struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Skipped  int `xml:"skipped,attr"`
			Cases    []struct {
				Failure *struct{} `xml:"failure"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		}
		if err := xml.Unmarshal([]byte(out("junit")), &s); err != nil {
			t.Fatal(err)
		}
		if s.Tests != 6 || s.Failures != 2 || s.Skipped != 1 || s.Cases[1].Failure == nil || s.Cases[0].Failure != nil || s.Cases[4].Failure != nil || s.Cases[5].Skipped == nil {
			t.Fatalf("junit: %+v", s)
		}
	})
	t.Run("gitlab code quality", func(t *testing.T) {
		var issues []struct {
			Severity, Fingerprint string
			Location              struct{ Path string }
		}
		if err := json.Unmarshal([]byte(out("gitlab")), &issues); err != nil {
			t.Fatal(err)
		}
		if len(issues) != 3 || issues[0].Severity != "major" || issues[1].Severity != "minor" || issues[0].Location.Path != "dir/b c.go" {
			t.Fatalf("code quality: %+v", issues)
		}
		if issues[0].Fingerprint == issues[1].Fingerprint {
			t.Fatal("two findings share a fingerprint")
		}
	})
	t.Run("markdown", func(t *testing.T) {
		got := out("markdown")
		for _, want := range []string{"### sessiongate verify failed: 3 commit(s)", "| ❌ | `b2b2b2b2b2b2` | sneak, past: hooks |", "honest \\| work", "Ann &lt;ann@example.invalid&gt;", "Re-run QA_VALIDATION `go test ./...`"} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in:\n%s", want, got)
			}
		}
	})
}
