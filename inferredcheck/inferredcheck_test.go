package inferredcheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestFileChecks: the checks over the files a session changed, from a
// work tree and a file list alone (the engine's TestInferredCheckKinds runs
// them in a session). Each lazy case has its honest twin.
func TestFileChecks(t *testing.T) {
	tree := map[string]string{
		"notes/todo.md":   "# Handoff\n\n[what was completed]\n",
		"notes/done.md":   "# Handoff\n\n## Status\n\nThe name argument is in.\n",
		"notes/filler.md": "# Handoff\n\n## Status\n\nTBD\n",
		"LICENSE":         "MIT\n",
		// Round 30: the template's placeholder after 1 MiB+ of blank
		// lines (past MaxScan), after a line of 1 MiB+ of spaces, and
		// after a 1 MiB+ blob; the honest twin is filled, then padded.
		"notes/padded.md":    "# Handoff\n\n## Status\n\nThe name argument is in.\n" + strings.Repeat("\n", 3<<19) + "## Next\n\n[what was completed]\n",
		"notes/wide.md":      "# Handoff\n\n## Status\n\nThe name argument is in." + strings.Repeat(" ", 3<<19) + "[what was completed]\n",
		"notes/blob.md":      "# Handoff\n\n## Status\n\nThe name argument is in.\n\n<!-- " + strings.Repeat("ab01", 3<<17) + " -->\n",
		"notes/honestpad.md": "# Handoff\n\n## Status\n\nThe name argument is in.\n" + strings.Repeat("\n", 3<<19) + "## Next\n\nDocument it in the README.\n",
	}
	lit := []string{"[what was completed]"}
	for _, tt := range []struct {
		name    string
		run     func(root string, files Lister) Result
		changed []string
		err     error // from the lister
		want    Status
		says    string
	}{
		{"unchanged: the session changed it", func(root string, f Lister) Result {
			return Unchanged(protocolspec.Check{Arg: "LICENSE"}, f, "0123456789abcdef", nil)
		}, []string{"LICENSE"}, nil, Fail, "git checkout 0123456789ab -- LICENSE"},
		{"unchanged: a person's edit merged in from main", func(root string, f Lister) Result {
			return Unchanged(protocolspec.Check{Arg: "*.md"}, f, "0123456789abcdef", func(p string) (bool, error) { return p == "HANDOFF.md", nil })
		}, []string{"HANDOFF.md"}, nil, Pass, "HANDOFF.md holds the default branch's version"},
		{"unchanged: main's edit merged in, and the session's own edit of another", func(root string, f Lister) Result {
			return Unchanged(protocolspec.Check{Arg: "*.md"}, f, "0123456789abcdef", func(p string) (bool, error) { return p == "HANDOFF.md", nil })
		}, []string{"HANDOFF.md", "NOTES.md"}, nil, Fail, "NOTES.md changed since the session started"},
		{"unchanged: the upstream question fails", func(root string, f Lister) Result {
			return Unchanged(protocolspec.Check{Arg: "*.md"}, f, "0123456789abcdef", func(p string) (bool, error) { return false, errors.New("git log failed") })
		}, []string{"HANDOFF.md"}, nil, Fail, "git log failed"},
		{"honest: unchanged", func(root string, f Lister) Result { return Unchanged(protocolspec.Check{Arg: "LICENSE"}, f, "", nil) }, []string{"notes/done.md"}, nil, Pass, "LICENSE unchanged"},
		{"unchanged: a glob out of the tree", func(root string, f Lister) Result { return Unchanged(protocolspec.Check{Arg: "../x"}, f, "", nil) }, nil, nil, Fail, ""},
		{"unchanged: the file list fails", func(root string, f Lister) Result { return Unchanged(protocolspec.Check{Arg: "LICENSE"}, f, "", nil) }, nil, errors.New("git diff failed"), Fail, "git diff failed"},
		{"placeholder left", func(root string, f Lister) Result {
			return NoPlaceholders(root, protocolspec.Check{Arg: "notes/*.md", Placeholders: lit}, f)
		}, []string{"notes/todo.md"}, nil, Fail, "notes/todo.md:3 still holds the template placeholder [what was completed]"},
		{"filler section", func(root string, f Lister) Result {
			return NoPlaceholders(root, protocolspec.Check{Arg: "notes/*.md", Placeholders: lit}, f)
		}, []string{"notes/filler.md"}, nil, Fail, `section "Status" holds only a filler`},
		{"honest: filled", func(root string, f Lister) Result {
			return NoPlaceholders(root, protocolspec.Check{Arg: "notes/*.md", Placeholders: lit}, f)
		}, []string{"notes/done.md"}, nil, Pass, "no template placeholder left in notes/done.md"},
		{"placeholder after 1.5 MiB of blank lines", func(root string, f Lister) Result {
			return NoPlaceholders(root, protocolspec.Check{Arg: "notes/*.md", Placeholders: lit}, f)
		}, []string{"notes/padded.md"}, nil, Fail, fmt.Sprintf("notes/padded.md:%d still holds the template placeholder [what was completed]", 8+3<<19)},
		{"placeholder after 1.5 MiB of spaces", func(root string, f Lister) Result {
			return NoPlaceholders(root, protocolspec.Check{Arg: "notes/*.md", Placeholders: lit}, f)
		}, []string{"notes/wide.md"}, nil, Fail, "notes/wide.md:5 still holds the template placeholder [what was completed]"},
		{"too large to scan after the padding is squeezed", func(root string, f Lister) Result {
			return NoPlaceholders(root, protocolspec.Check{Arg: "notes/*.md", Placeholders: lit}, f)
		}, []string{"notes/blob.md"}, nil, Fail, "notes/blob.md is not scanned for placeholders"},
		{"honest: filled, then 1.5 MiB of blank lines", func(root string, f Lister) Result {
			return NoPlaceholders(root, protocolspec.Check{Arg: "notes/*.md", Placeholders: lit}, f)
		}, []string{"notes/honestpad.md"}, nil, Pass, "no template placeholder left in notes/honestpad.md"},
		{"honest: a section after 1.5 MiB of blank lines", func(root string, f Lister) Result {
			return HasSection(root, protocolspec.Check{Arg: "notes/*.md", Section: "next"}, f)
		}, []string{"notes/honestpad.md"}, nil, Pass, `has the "next" section`},
		{"no file of the glob changed", func(root string, f Lister) Result {
			return NoPlaceholders(root, protocolspec.Check{Arg: "notes/*.md"}, f)
		}, []string{"LICENSE", "notes/deleted.md"}, nil, Skipped, "no file matching notes/*.md"},
		{"section missing", func(root string, f Lister) Result {
			return HasSection(root, protocolspec.Check{Arg: "notes/*.md", Section: "status"}, f)
		}, []string{"notes/todo.md", "notes/done.md"}, nil, Fail, `has no "status" section`},
		{"honest: section there", func(root string, f Lister) Result {
			return HasSection(root, protocolspec.Check{Arg: "notes/*.md", Section: "status"}, f)
		}, []string{"notes/done.md"}, nil, Pass, `has the "status" section`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for f, body := range tree {
				p := filepath.Join(root, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := tt.run(root, func() ([]string, error) { return tt.changed, tt.err })
			if r.Status != tt.want || !strings.Contains(r.Message, tt.says) {
				t.Fatalf("= %s %q, want %s saying %q", r.Status, r.Message, tt.want, tt.says)
			}
		})
	}
}

// TestCommitChecks: commit messages and the hooks' records of the
// session's commits (s1). A commit the hooks recorded as BYPASS, one
// carrying copied trailers no hook recorded, and one with neither fail;
// commits another session made are left out; without a store the trailer
// is all there is.
func TestCommitChecks(t *testing.T) {
	own := func(sha, subj string) CommitSubject {
		return CommitSubject{SHA: sha, Subject: subj, SessionID: "s1", FirstParent: true}
	}
	records := func(m map[string]string) HookRecords {
		return HookRecords{Checked: "commit_sha", Trailer: "Session-Id", Of: func(context.Context, []string) (map[string]string, error) { return m, nil }}
	}
	other := CommitSubject{SHA: "o", Subject: "wip", SessionID: "s2", FirstParent: true}
	for _, tt := range []struct {
		name    string
		commits []CommitSubject
		run     func([]CommitSubject) Result
		want    Status
		says    string
	}{
		{"wip message", []CommitSubject{own("a", "wip"), other}, func(c []CommitSubject) Result {
			return CommitMessages(c, "s1", &protocolspec.Phase{}, "conventional", nil)
		}, Fail, `1 of 1 commit message(s) do not follow conventional commits`},
		{"honest: conventional, another's wip left out", []CommitSubject{own("a", "feat: greet by name"), other}, func(c []CommitSubject) Result {
			return CommitMessages(c, "s1", &protocolspec.Phase{}, "conventional", nil)
		}, Pass, "1 commit message(s) follow"},
		{"honest: a whitespace-only style commit of fillers", []CommitSubject{own("a", "feat: greet by name"), own("b", "style: code cleanup")}, func(c []CommitSubject) Result {
			return CommitMessages(c, "s1", &protocolspec.Phase{}, "conventional", func(sha string) bool { return sha == "b" })
		}, Pass, "2 commit message(s) follow"},
		{"style of fillers that changes more than layout", []CommitSubject{own("a", "style: code cleanup")}, func(c []CommitSubject) Result {
			return CommitMessages(c, "s1", &protocolspec.Phase{}, "conventional", func(string) bool { return false })
		}, Fail, "the description says nothing"},
		{"a layout-only commit under feat of fillers", []CommitSubject{own("a", "feat: cleanup")}, func(c []CommitSubject) Result {
			return CommitMessages(c, "s1", &protocolspec.Phase{}, "conventional", func(string) bool { return true })
		}, Fail, "the description says nothing"},
		{"no commit", []CommitSubject{other}, func(c []CommitSubject) Result {
			return CommitMessages(c, "s1", &protocolspec.Phase{}, "conventional", nil)
		}, Skipped, "no commit of this session"},
		{"recorded as BYPASS", []CommitSubject{own("a", "feat: x")}, func(c []CommitSubject) Result {
			return NoHookBypass(context.Background(), c, "s1", records(map[string]string{"a": "bypass_commit"}))
		}, Fail, "recorded as BYPASS"},
		{"copied trailer, no record", []CommitSubject{own("a", "feat: x")}, func(c []CommitSubject) Result {
			return NoHookBypass(context.Background(), c, "s1", records(map[string]string{}))
		}, Fail, "trailers copied"},
		{"no trailer, no record", []CommitSubject{{SHA: "a", Subject: "feat: x", FirstParent: true}}, func(c []CommitSubject) Result {
			return NoHookBypass(context.Background(), c, "s1", records(map[string]string{}))
		}, Fail, "carry no Session-Id trailer"},
		{"honest: recorded as checked", []CommitSubject{own("a", "feat: x"), other}, func(c []CommitSubject) Result {
			return NoHookBypass(context.Background(), c, "s1", records(map[string]string{"a": "commit_sha"}))
		}, Pass, "1 commit(s) recorded by the session's hooks as checked"},
		{"honest: no store, trailer carried", []CommitSubject{own("a", "feat: x")}, func(c []CommitSubject) Result {
			return NoHookBypass(context.Background(), c, "s1", HookRecords{Trailer: "Session-Id"})
		}, Pass, "carry the session's Session-Id trailer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.run(tt.commits)
			if r.Status != tt.want || !strings.Contains(r.Message, tt.says) {
				t.Fatalf("= %s %q, want %s saying %q", r.Status, r.Message, tt.want, tt.says)
			}
		})
	}
}

// TestNotDefaultBranch: work on the default branch (configured or the
// repository's) or a detached HEAD fails; a feature branch passes.
func TestNotDefaultBranch(t *testing.T) {
	for _, tt := range []struct {
		branch, configured, def string
		want                    Status
	}{
		{"main", "", "main", Fail},
		{"trunk", "trunk", "main", Fail},
		{"", "", "main", Fail},
		{"feat/x", "", "", Skipped},
		{"feat/x", "trunk", "main", Pass},
	} {
		if r := NotDefaultBranch(tt.branch, tt.configured, tt.def); r.Status != tt.want {
			t.Errorf("NotDefaultBranch(%q, %q, %q) = %s %q, want %s", tt.branch, tt.configured, tt.def, r.Status, r.Message, tt.want)
		}
	}
}
