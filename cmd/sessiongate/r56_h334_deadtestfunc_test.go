package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR56DeadTestFunctionRemovedWithItsCode (round 56, helper 334): the
// session removes a deprecated function Old and, from the test file that
// stays, the test TestOld that called it. The local QA gate takes it as a
// test deleted with its code (docs/evidence.md, TestQATestsRemovedInSession):
// COMPLETE, clean. CI's verify fails the commit: "rerun guard: ... removes
// the test TestOld: ... passes only with a person's signature". Its dead-
// code rule (verify/deadtests.go dropDeadTests) reads only deleted test
// files (it returns early when no file is gone), so every honest removal
// of a dead function with its test from a kept file fails CI. The lazy
// twin (TestOld removed, Old kept) must keep failing.
func TestR56DeadTestFunctionRemovedWithItsCode(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		name := "honest-code-and-test-removed"
		if lazy {
			name = "lazy-test-removed-code-kept"
		}
		t.Run(name, func(t *testing.T) {
			dir := newRepoDir(t)
			env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e", "CLAUDECODE=1"}
			write := func(rel, body string) {
				t.Helper()
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sg := func(want int, args ...string) string {
				t.Helper()
				code, out, errb := sgBin(t, dir, env, args...)
				if want >= 0 && code != want {
					t.Fatalf("sessiongate %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out, errb)
				}
				return out + errb
			}
			git := func(args ...string) string {
				t.Helper()
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), env...)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
				return strings.TrimSpace(string(out))
			}
			write("go.mod", "module example.com/m\n\ngo 1.22\n")
			write("m.go", "package m\n\n// One is one.\nfunc One() int { return 1 }\n\n// Old is deprecated: use One.\nfunc Old() int { return 1 }\n")
			write("m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal()\n\t}\n}\n\nfunc TestOld(t *testing.T) {\n\tif Old() != 1 {\n\t\tt.Fatal()\n\t}\n}\n")
			write("README.md", "# m\n")
			sg(0, "init")
			git("add", "-A")
			git("commit", "-q", "--no-verify", "-m", "chore: adopt sessiongate")
			base := git("rev-parse", "HEAD")
			sg(0, "install")
			git("switch", "-q", "-c", "chore/rm-old")
			sg(0, "session", "start", "--objective", "remove the deprecated Old")
			sg(0, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read README.md and m.go: Old is deprecated; history: chore: adopt sessiongate")
			sg(0, "session", "advance")
			sg(0, "run", "--phase", "GIT_STATE", "--", "git", "status")
			sg(0, "session", "advance")
			sg(0, "session", "evidence", "--phase", "PLAN", "--type", "manual", "--value", "delete Old and TestOld; run go test")
			sg(0, "session", "advance")
			if lazy {
				write("m.go", "package m\n\n// One is one.\nfunc One() int { return 1 }\n\n// Old is deprecated: use One.\nfunc Old() int { return 2 }\n")
			} else {
				write("m.go", "package m\n\n// One is one.\nfunc One() int { return 1 }\n")
			}
			write("m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal()\n\t}\n}\n")
			git("add", "-A")
			git("commit", "-q", "-m", "refactor(m)!: remove the deprecated Old")
			sg(-1, "run", "--phase", "QA_VALIDATION", "--", "go", "test", "./...")
			end := sg(-1, "session", "end", "--summary", "Old removed")
			code, out, errb := sgBin(t, dir, env, "verify", base+"..HEAD")
			if lazy {
				if code == 0 {
					t.Fatalf("the lazy removal (Old kept, its test gone) passes verify:\n%s%s", out, errb)
				}
				return
			}
			if !strings.Contains(end, "COMPLETE: clean") {
				t.Fatalf("local end not clean:\n%s", end)
			}
			if code != 0 {
				t.Fatalf("verify: exit %d, want 0 (the local gate took TestOld as deleted with Old):\n%s%s", code, out, errb)
			}
		})
	}
}
