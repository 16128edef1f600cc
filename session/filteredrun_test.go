package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// lfsShim stands in for git-lfs (not installed everywhere): its clean
// writes the content under .git/lfs/objects and prints a pointer, as
// git-lfs does; smudge prints the object back.
const lfsShim = `#!/bin/sh
set -e
d="$(git rev-parse --git-dir)/lfs"
mkdir -p "$d/objects" "$d/tmp"
case "$1" in
clean)
	f="$d/tmp/in.$$"
	cat > "$f"
	oid=$(sha256sum "$f" | cut -d' ' -f1)
	size=$(wc -c < "$f" | tr -d ' ')
	mv "$f" "$d/objects/$oid"
	printf 'version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %s\n' "$oid" "$size";;
smudge)
	oid=$(sed -n 's/^oid sha256://p')
	cat "$d/objects/$oid";;
esac
`

// TestQARunTreeNotFiltered: the tree a QA run records is what the tests
// read, not what a clean filter of the agent's makes of it. The lazy
// agent fixes add.go, has git see the broken version through a filter
// while `sessiongate run` records the tree, then writes the broken
// version and commits it: the recorded tree is the committed one, so QA
// counted for code no test ran on (reproduced with the real binary: COMPLETE,
// clean). Through GIT_CONFIG_COUNT (one process's config) or through the
// repository's .git/config, with the attribute in .git/info/attributes
// (untracked). Both rows ended clean on the old code. The honest twin: a
// Git LFS filter a person configured in .git/config, with a committed
// .gitattributes and an LFS file the tests read, still ends clean.
func TestQARunTreeNotFiltered(t *testing.T) {
	requireGit(t)
	const broken = "package p\n\nfunc Add(a, b int) int { return a - b }\n"
	const fixed = "package p\n\nfunc Add(a, b int) int { return a + b }\n"
	const addTest = "package p\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"
	const toBroken = "sed s/+/-/"
	tests := []struct {
		name string
		// during is set around the run only; setup before the session.
		setup, during func(t *testing.T, root string)
		lazy          bool
	}{
		{name: "clean filter from GIT_CONFIG_COUNT", lazy: true,
			setup: func(t *testing.T, root string) {
				gittest.Write(t, root, ".git/info/attributes", "add.go filter=x\n")
			},
			during: func(t *testing.T, root string) {
				t.Setenv("GIT_CONFIG_COUNT", "1")
				t.Setenv("GIT_CONFIG_KEY_0", "filter.x.clean")
				t.Setenv("GIT_CONFIG_VALUE_0", toBroken)
			}},
		{name: "clean filter from git -c (GIT_CONFIG_PARAMETERS)", lazy: true,
			setup: func(t *testing.T, root string) {
				gittest.Write(t, root, ".git/info/attributes", "add.go filter=x\n")
			},
			during: func(t *testing.T, root string) {
				t.Setenv("GIT_CONFIG_PARAMETERS", "'filter.x.clean'='"+toBroken+"'")
			}},
		// Git LFS's own driver is not counted as hiding (HiddenFiles): a
		// git-lfs of the agent's on PATH, named in GIT_CONFIG_COUNT.
		{name: "Git LFS's driver name from GIT_CONFIG_COUNT, a git-lfs of the agent's", lazy: true,
			setup: func(t *testing.T, root string) {
				gittest.Write(t, root, ".git/info/attributes", "add.go filter=lfs\n")
			},
			during: func(t *testing.T, root string) {
				bin := t.TempDir()
				if err := os.WriteFile(filepath.Join(bin, "git-lfs"), []byte("#!/bin/sh\n"+toBroken+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				t.Setenv("GIT_CONFIG_COUNT", "1")
				t.Setenv("GIT_CONFIG_KEY_0", "filter.lfs.clean")
				t.Setenv("GIT_CONFIG_VALUE_0", "git-lfs clean -- %f")
			}},
		// Round 17: the same driver line in .git/config (pass 6 left it open).
		{name: "Git LFS's driver line in .git/config, a git-lfs of the agent's", lazy: true,
			setup: func(t *testing.T, root string) {
				gittest.Write(t, root, ".git/info/attributes", "add.go filter=lfs\n")
			},
			during: func(t *testing.T, root string) {
				bin := t.TempDir()
				if err := os.WriteFile(filepath.Join(bin, "git-lfs"), []byte("#!/bin/sh\n"+toBroken+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				gittest.Git(t, root, "config", "filter.lfs.clean", "git-lfs clean -- %f")
				t.Cleanup(func() { gittest.Git(t, root, "config", "--unset", "filter.lfs.clean") })
			}},
		{name: "clean filter written into .git/config for the run", lazy: true,
			setup: func(t *testing.T, root string) {
				gittest.Write(t, root, ".git/info/attributes", "add.go filter=x\n")
			},
			during: func(t *testing.T, root string) {
				gittest.Git(t, root, "config", "filter.x.clean", toBroken)
				t.Cleanup(func() { gittest.Git(t, root, "config", "--unset", "filter.x.clean") })
			}},
		{name: "honest: Git LFS configured by a person in .git/config",
			setup: func(t *testing.T, root string) {
				bin := t.TempDir()
				if err := os.WriteFile(filepath.Join(bin, "git-lfs"), []byte(lfsShim), 0o755); err != nil {
					t.Fatal(err)
				}
				t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				gittest.Git(t, root, "config", "filter.lfs.clean", "git-lfs clean -- %f")
				gittest.Git(t, root, "config", "filter.lfs.smudge", "git-lfs smudge -- %f")
				gittest.Git(t, root, "config", "filter.lfs.required", "true")
				gittest.Commit(t, root, "track the fixture with LFS", map[string]string{
					".gitattributes": "*.bin filter=lfs diff=lfs merge=lfs -text\n", "testdata/big.bin": strings.Repeat("data", 64)})
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, qaProtocol)
			gittest.Commit(t, e.root, "project", map[string]string{"go.mod": "module example.com/p\n\ngo 1.22\n", "add.go": "package p\n", "add_test.go": addTest})
			tc.setup(t, e.root)
			id := e.start("fix Add")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: go test")
			e.advance(id) // WORKING
			gittest.Write(t, e.root, "add.go", fixed)
			e.advance(id) // into QA_VALIDATION
			var ran *session.Evidence
			t.Run("run", func(t *testing.T) { // the during settings end with this subtest
				if tc.during != nil {
					tc.during(t, e.root)
				}
				ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
					Command: "go test ./...", Output: []byte("ok  \texample.com/p\t0.01s\n")})
				if err != nil {
					t.Fatal(err)
				}
				ran = ev
			})
			if ran == nil {
				t.FailNow()
			}
			if tc.lazy {
				gittest.Write(t, e.root, "add.go", broken) // what gets committed
			}
			res := e.advance(id)
			if !tc.lazy && res.Blocked != nil {
				t.Fatalf("QA gate blocked an honest run (ref %q): %+v", ran.Ref, res.Blocked)
			}
			gittest.Git(t, e.root, "add", "-A")
			e.hookCommit("fix: add")
			end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "done"})
			if err != nil {
				t.Fatal(err)
			}
			clean := res.Blocked == nil && end.Ended
			for _, g := range end.Gates {
				clean = clean && g.Status != session.StatusFail
			}
			if tc.lazy && clean {
				t.Errorf("route gets through: QA counted a run whose recorded tree (%s) held the broken add.go the commit holds, not the fixed one the tests read", ran.Ref)
			}
			if !tc.lazy && !clean {
				t.Errorf("honest session did not end clean (ref %q): ended=%v %+v %+v", ran.Ref, end.Ended, end.Blocked, end.Gates)
			}
		})
	}
}
