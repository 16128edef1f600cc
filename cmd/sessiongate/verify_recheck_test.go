package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// signedWorld is an origin whose main adopted sessiongate with one
// session, a committed ssh allowed-signers file (alice, bob) named by
// verify.allowed_signers, and accept_signers [alice]: what a team sets up
// so that CI can tell a person's word from anyone's.
type signedWorld struct {
	*ciWorld
	keys string // alice's and bob's ssh keys
}

const recsSpec = "refs/sessiongate/records:refs/sessiongate/records"

func needTool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required under CI=true (%s): %v", name, pkg, err)
		}
		t.Skipf("no %s: apt-get install %s", name, pkg)
	}
	return p
}

func newSignedWorld(t *testing.T, signers bool, setup ...func(w *ciWorld)) *signedWorld {
	t.Helper()
	keygen := needTool(t, "ssh-keygen", "openssh-client")
	realBinary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	keys := filepath.Join(dir, "keys")
	for _, d := range []string{home, keys} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := "[user]\n\tname = Dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[gpg]\n\tformat = ssh\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	allowed := ""
	for _, who := range []string{"alice", "bob"} {
		k := filepath.Join(keys, who)
		if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
		pub, err := os.ReadFile(k + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		allowed += who + "@example.com " + strings.TrimSpace(string(pub)) + "\n"
	}
	w := &ciWorld{dir: dir, remote: filepath.Join(dir, "remote.git"), dev: filepath.Join(dir, "dev")}
	w.env = []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GITHUB_ACTIONS=", "GITLAB_CI=", "GITHUB_STEP_SUMMARY="}
	w.git(t, dir, "init", "-q", "--bare", w.remote)
	w.git(t, dir, "init", "-q", w.dev)
	w.git(t, w.dev, "remote", "add", "origin", w.remote)
	if err := os.WriteFile(filepath.Join(w.dev, "README.md"), []byte("# project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.sg(t, w.dev, "init")
	w.setCommand(t, "true")
	if signers {
		if err := os.MkdirAll(filepath.Join(w.dev, ".sessiongate"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(w.dev, ".sessiongate", "allowed_signers"), []byte(allowed), 0o644); err != nil {
			t.Fatal(err)
		}
		editConfig(t, w, func(b string) string {
			b = regexp.MustCompile(`(?m)^accept_signers:.*$`).ReplaceAllString(b, "accept_signers: [alice@example.com]")
			if !strings.Contains(b, "alice@example.com") {
				b += "accept_signers: [alice@example.com]\n"
			}
			out := regexp.MustCompile(`(?m)^verify:\n`).ReplaceAllString(b, "verify:\n  allowed_signers: .sessiongate/allowed_signers\n")
			if out == b {
				t.Fatal("no verify: section in the starter sessiongate.yaml to add allowed_signers to")
			}
			return out
		})
	}
	for _, f := range setup {
		f(w)
	}
	w.sg(t, w.dev, "install")
	w.session(t, "adopt.txt")
	w.git(t, w.dev, "push", "-q", "origin", "main", "refs/sessiongate/records")
	w.main = w.git(t, w.dev, "rev-parse", "HEAD")
	return &signedWorld{ciWorld: w, keys: keys}
}

func editConfig(t *testing.T, w *ciWorld, edit func(string) string) {
	t.Helper()
	p := filepath.Join(w.dev, "sessiongate.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeFile writes content to a file of dev.
func (w *ciWorld) writeFile(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(w.dev, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// branchSession runs, on a new branch from main, a session whose work is
// work(), pushes the branch and the records, and returns its tip.
func (w *ciWorld) branchSession(t *testing.T, name string, work func()) string {
	t.Helper()
	w.git(t, w.dev, "checkout", "-q", "-b", name, w.main)
	w.sessionWith(t, work)
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", name, "refs/sessiongate/records")
	return w.git(t, w.dev, "rev-parse", "HEAD")
}

// ciVerify checks tip out as a CI job does (branches and the records ref
// fetched, detached) and runs the real binary's verify main..tip.
func (w *ciWorld) ciVerify(t *testing.T, name, tip string, extra ...string) (int, string) {
	t.Helper()
	ci := w.checkout(t, "ci-"+name, false, tip, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
	code, out, errb := sgBin(t, ci, w.env, append([]string{"verify", w.main + ".." + tip}, extra...)...)
	return code, out + errb
}

// TestVerifyFileEvidence: file_path and content_hash evidence is read
// again from git in CI (issue 26.1). The record names each file by path
// and sha256; verify hashes the file at the session's end commit and fails,
// naming the file and the requirement, when git does not hold the bytes
// the gate passed on. An honest session whose evidenced files are
// committed passes.
func TestVerifyFileEvidence(t *testing.T) {
	t.Parallel()
	w := newSignedWorld(t, false).ciWorld
	evidence := func(kind, rel string) {
		w.sg(t, w.dev, "session", "evidence", "--phase", "DOCUMENTATION_UPDATE", "--type", kind, "--value", rel)
	}
	honest := w.branchSession(t, "honest", func() {
		w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "file_path", "--value", "README.md")
		w.writeFile(t, "PLAN.md", "# plan\nadd the widget\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "plan")
		evidence("content_hash", "PLAN.md")
		// Changed again later in the session: the evidenced bytes were
		// committed once, which is what the evidence said.
		w.writeFile(t, "PLAN.md", "# plan\nadd the widget\ndone\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "plan done")
	})
	uncommitted := w.branchSession(t, "uncommitted", func() {
		// Evidence of a file that never reaches git (ignored, local).
		if err := os.WriteFile(filepath.Join(w.dev, ".git", "info", "exclude"), []byte("NOTES.md\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		w.writeFile(t, "NOTES.md", "# notes the reviewer never sees\n")
		evidence("file_path", "NOTES.md")
		w.write(t, "work.txt")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "work")
	})
	if err := os.Remove(filepath.Join(w.dev, ".git", "info", "exclude")); err != nil {
		t.Fatal(err)
	}
	changed := w.branchSession(t, "changed", func() {
		// The gate passed on a report the session then replaced before
		// any commit: git never held the evidenced bytes.
		// The gate passed on bytes of a committed file that were put back
		// before any commit: git never held them, and the session did
		// not change the file.
		w.writeFile(t, "README.md", "# project\nall 41 tests pass\n")
		evidence("content_hash", "README.md")
		w.git(t, w.dev, "checkout", "--", "README.md")
		w.write(t, "report.txt")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "report")
	})
	cases := []struct {
		name, tip string
		code      int
		want      string
	}{
		{"honest", honest, 0, `OK`},
		{"uncommitted", uncommitted, 1, `file_path evidence "NOTES\.md" for phase DOCUMENTATION_UPDATE: the file is not in git at the session's end commit`},
		{"changed", changed, 1, `content_hash evidence "README\.md" for phase DOCUMENTATION_UPDATE has sha256 [0-9a-f]{12} in the record, but git holds [0-9a-f]{12} at the session's end commit`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := w.ciVerify(t, c.name, c.tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("verify: exit %d, want %d matching %s\n%s", code, c.code, c.want, out)
			}
		})
	}
}

// TestVerifyTrustedChanges: a commit of the range that changes
// sessiongate.yaml or the protocol passes CI only with a person's
// signature by a listed signer: a signed acceptance of the new content on
// the records ref, or the commit's own signature (issue 26.2). An
// acceptance made at a terminal without a signature (which an agent with a
// pty can make) fails, naming the commit and the file.
func TestVerifyTrustedChanges(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true)
	w := sw.ciWorld
	relax := func(name string) {
		editConfig(t, w, func(b string) string {
			return strings.Replace(b, "verify:\n", "verify:\n  violations: warn # "+name+"\n", 1)
		})
	}
	unsigned := w.branchSession(t, "unsigned", func() {
		relax("unsigned")
		w.acceptAtTerminal(t, "relax verify")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "relax verify")
	})
	w.git(t, w.dev, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	signedAcc := w.branchSession(t, "signed-acceptance", func() {
		relax("signed")
		acceptArgs(t, w, "--reason", "lead agreed", "--sign")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "relax verify, accepted")
	})
	// A person's own signed commit, outside any session.
	w.git(t, w.dev, "checkout", "-q", "-b", "signed-commit", w.main)
	relax("person")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-S", "-m", "relax verify (lead)")
	signedCommit := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "signed-commit", "refs/sessiongate/records")
	w.git(t, w.dev, "config", "--unset", "user.signingkey")
	cases := []struct {
		name, tip string
		code      int
		want      string
	}{
		{"unsigned acceptance", unsigned, 1, `commit [0-9a-f]{12} changes sessiongate\.yaml \(now sha256 [0-9a-f]{12}\), which verify trusts from the base [0-9a-f]{12}: .*an acceptance .* exists, but no signer in accept_signers signed it, which is no proof in CI`},
		{"signed acceptance", signedAcc, 0, `changes sessiongate\.yaml \(now sha256 [0-9a-f]{12}\): accepted by alice@example\.com \(signed records commit`},
		{"signed commit", signedCommit, 0, `changes sessiongate\.yaml \(now sha256 [0-9a-f]{12}\): the commit is signed by alice@example\.com, a listed signer`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := w.ciVerify(t, strings.ReplaceAll(c.name, " ", "-"), c.tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("verify: exit %d, want %d matching %s\n%s", code, c.code, c.want, out)
			}
		})
	}
}

// TestVerifyPersonClaims: an actor record saying a person made a commit is
// anyone's to write (issue 26.4). With verify.allowed_signers at the base
// it counts only when the commit (or the records commit that wrote the
// claim) is signed by a key of that file; an unsigned claim is set aside,
// named, and the commit fails under verify.unsessioned: people. Without
// allowed signers the commit passes as before, and verify says the claim
// is unverified.
func TestVerifyPersonClaims(t *testing.T) {
	t.Parallel()
	personCommit := func(w *ciWorld, branch, file string, sign bool) string {
		w.git(t, w.dev, "checkout", "-q", "-b", branch, w.main)
		w.write(t, file)
		w.git(t, w.dev, "add", "-A")
		args := []string{"commit", "-q", "-m", "a person's fix: " + file}
		if sign {
			args = append(args, "-S")
		}
		w.git(t, w.dev, args...) // the hooks on: post-commit writes a person actor record
		w.git(t, w.dev, "push", "-q", "--no-verify", "origin", branch, "refs/sessiongate/records")
		return w.git(t, w.dev, "rev-parse", "HEAD")
	}
	sw := newSignedWorld(t, true)
	signed := sw.ciWorld
	unsignedTip := personCommit(signed, "claim-unsigned", "claim.txt", false)
	signed.git(t, signed.dev, "config", "user.signingkey", filepath.Join(sw.keys, "bob"))
	signedTip := personCommit(signed, "claim-signed", "bob.txt", true)
	plain := newSignedWorld(t, false).ciWorld
	plainTip := personCommit(plain, "claim-plain", "plain.txt", false)
	cases := []struct {
		name string
		w    *ciWorld
		tip  string
		code int
		want string
	}{
		{"unsigned claim, signers configured", signed, unsignedTip, 1, `an actor record \(actors/[0-9a-f]{2}/[0-9a-f]{40}\.json\) says a person made it, but neither the commit nor the records commit that wrote the record is signed by a key in \.sessiongate/allowed_signers`},
		{"signed commit, signers configured", signed, signedTip, 0, `a person's commit by Dev <dev@example\.invalid>.*\n.*the commit is signed by bob@example\.com \(verify\.allowed_signers\)`},
		{"no signers configured", plain, plainTip, 0, `note: person claims on the records ref are unverified: 1 commit\(s\) pass as a person's`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := c.w.ciVerify(t, strings.ReplaceAll(c.name[:10], " ", "-"), c.tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("verify: exit %d, want %d matching %s\n%s", code, c.code, c.want, out)
			}
		})
	}
}

// TestVerifyRerunGuard: --rerun runs the base's QA command, but on the
// head's files; a change that weakens the script the command runs,
// removes a test function or adds a skip marker makes that run prove less
// (issue 26.3). Each fails verify --rerun, named on the commit that made
// it, unless a listed signer signed the commit; an honest change that
// adds a test and code passes.
func TestVerifyRerunGuard(t *testing.T) {
	t.Parallel()
	const extraTest = "package calc\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal(\"double\")\n\t}\n}\n"
	const calcTest = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\nfunc TestSub(t *testing.T) {\n\tif 2-1 != 1 {\n\t\tt.Fatal(\"sub\")\n\t}\n}\n"
	sw := newSignedWorld(t, true, func(w *ciWorld) {
		// The project's tests: a script the QA command names, which
		// checks the work (no broken.txt) and that the Go tests exist.
		w.writeFile(t, "scripts/test.sh", "#!/bin/sh\ntest ! -f broken.txt && grep -q TestAdd calc_test.go\n")
		w.writeFile(t, "calc_test.go", calcTest)
		w.writeFile(t, "extra_test.go", extraTest)
		w.writeFile(t, "double.go", "package calc\n\n// Double is unused.\nfunc Double(n int) int { return 2 * n }\n")
		w.setCommand(t, "sh scripts/test.sh")
	})
	w := sw.ciWorld
	commit := func(msg string, sign bool) {
		w.git(t, w.dev, "add", "-A")
		args := []string{"commit", "-q", "-m", msg}
		if sign {
			args = append(args, "-S")
		}
		w.git(t, w.dev, args...)
	}
	honest := w.branchSession(t, "honest", func() {
		w.writeFile(t, "calc_test.go", calcTest+"\nfunc TestMul(t *testing.T) {\n\tif 2*2 != 4 {\n\t\tt.Fatal(\"mul\")\n\t}\n}\n")
		w.write(t, "mul.txt")
		commit("multiply, with its test", false)
	})
	// A weakening the local QA gate sees (the QA command's own script, a
	// skip added to a test) blocks the end, so the session never
	// completes; terminated, its commit still reaches CI, where the rerun
	// guard names the change.
	blocked := func(name, want string, work func()) string {
		t.Helper()
		w.git(t, w.dev, "checkout", "-q", "-b", name, w.main)
		sid := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`).FindString(w.sg(t, w.dev, "session", "start", "--objective", "work for CI"))
		if sid == "" {
			t.Fatal("session start printed no session id")
		}
		w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
		w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
		w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
		work()
		w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
		if code, out, errb := sgBin(t, w.dev, w.env, "session", "end", "--summary", "done"); code != 1 || !strings.Contains(out+errb, want) {
			t.Fatalf("%s: the local QA gate let the weakening through (want exit 1 naming %q): exit %d\n%s%s", name, want, code, out, errb)
		}
		w.sg(t, w.dev, "session", "terminate", sid, "--reason", "blocked at QA")
		w.git(t, w.dev, "push", "-q", "--no-verify", "origin", name, "refs/sessiongate/records")
		return w.git(t, w.dev, "rev-parse", "HEAD")
	}
	script := blocked("script", "proves less", func() {
		w.write(t, "broken.txt")
		w.writeFile(t, "scripts/test.sh", "#!/bin/sh\nexit 0\n")
		commit("faster tests", false)
	})
	skip := blocked("skip", "skips tests", func() {
		w.writeFile(t, "calc_test.go", strings.Replace(calcTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tt.Skip(\"flaky\")\n", 1))
		commit("skip a flaky test", false)
	})
	// The skip hidden from git's diff (adversarial pass 4): a -diff
	// attribute, or a NUL byte in the file, made the patch say "Binary
	// files differ", and the guard read no added line.
	skipAttr := blocked("skip-attr", "skips tests", func() {
		w.writeFile(t, ".gitattributes", "*_test.go -diff\n")
		w.writeFile(t, "calc_test.go", strings.Replace(calcTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tt.Skip(\"flaky\")\n", 1))
		commit("skip a flaky test", false)
	})
	skipNUL := blocked("skip-nul", "skips tests", func() {
		w.writeFile(t, "calc_test.go", strings.Replace(calcTest, "func TestSub(t *testing.T) {\n", "// \x00\nfunc TestSub(t *testing.T) {\n\tt.Skip(\"flaky\")\n", 1))
		commit("skip a flaky test", false)
	})
	removed := blocked("removed", "deletes the test TestSub", func() {
		w.writeFile(t, "calc_test.go", strings.TrimSuffix(calcTest[:strings.Index(calcTest, "func TestSub")], "\n"))
		commit("drop a test", false)
	})
	// A test file moved unchanged is the same tests (field pass: an
	// honest rename failed as "deletes this test file"); moved and cut, it
	// still fails.
	moved := w.branchSession(t, "moved", func() {
		w.git(t, w.dev, "mv", "extra_test.go", "double_test.go")
		commit("test: name the file after what it tests", false)
	})
	movedCut := blocked("moved-cut", "skips tests", func() {
		w.git(t, w.dev, "mv", "extra_test.go", "double_test.go")
		w.writeFile(t, "double_test.go", "package calc\n")
		commit("test: name the file after what it tests", false)
	})
	// Dead code deleted with its test (issue 25 field pass: it needed a
	// signer); a test file deleted while its code stays still fails.
	dead := w.branchSession(t, "dead", func() {
		w.git(t, w.dev, "rm", "-q", "extra_test.go")
		w.writeFile(t, "double.go", "package calc\n")
		commit("refactor: drop Double and its test", false)
	})
	deadLive := blocked("dead-live", "skips tests", func() {
		w.git(t, w.dev, "rm", "-q", "extra_test.go")
		w.write(t, "note.txt")
		commit("test: drop the double test", false)
	})
	// Renamed, not dead (issue 25's review): Double became Twice with its
	// body, and its test went as dead code; the QA gate and the rerun
	// guard passed it on the old code.
	deadRenamed := blocked("dead-renamed", "extra_test.go: deleted or renamed", func() {
		w.git(t, w.dev, "rm", "-q", "extra_test.go")
		w.writeFile(t, "double.go", "package calc\n\n// Twice is unused.\nfunc Twice(n int) int { return 2 * n }\n")
		commit("refactor: drop Double and its test", false)
	})
	// Tests consolidated under new names (issue 25: it needed a signer):
	// the deleted test's check reappears in a table test; the code stays.
	consolidated := w.branchSession(t, "consolidated", func() {
		w.git(t, w.dev, "rm", "-q", "extra_test.go")
		w.writeFile(t, "calc_test.go", calcTest+"\nfunc TestTable(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tgot, want int\n\t\tname      string\n\t}{{Double(2), 4, \"double\"}} {\n\t\tif c.got != c.want {\n\t\t\tt.Fatal(c.name)\n\t\t}\n\t}\n}\n")
		commit("test: one table for the arithmetic checks", false)
	})
	w.git(t, w.dev, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	// The lead drops a test on purpose: a person's signed commit (the
	// local QA gate refuses it inside a session).
	w.git(t, w.dev, "checkout", "-q", "-b", "signed", w.main)
	w.writeFile(t, "calc_test.go", strings.TrimSuffix(calcTest[:strings.Index(calcTest, "func TestSub")], "\n"))
	commit("drop the subtraction test (lead)", true)
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "signed", "refs/sessiongate/records")
	signed := w.git(t, w.dev, "rev-parse", "HEAD")
	cases := []struct {
		name, tip string
		code      int
		want      string
	}{
		{"honest", honest, 0, `(?m)^OK   rerun QA_VALIDATION: sh scripts/test\.sh`},
		{"script", script, 1, `rerun guard: commit [0-9a-f]{12} changes scripts/test\.sh: changes it, and the rerun command ` + "`sh scripts/test\\.sh`" + ` runs it`},
		{"skip", skip, 1, `rerun guard: commit [0-9a-f]{12} changes calc_test\.go: adds "t\.Skip\(\\"flaky\\"\)": a skip no condition guards`},
		{"skip-attr", skipAttr, 1, `rerun guard: commit [0-9a-f]{12} changes calc_test\.go: adds "t\.Skip\(\\"flaky\\"\)": a skip no condition guards`},
		{"skip-nul", skipNUL, 1, `rerun guard: commit [0-9a-f]{12} changes calc_test\.go: adds "t\.Skip\(\\"flaky\\"\)": a skip no condition guards`},
		{"removed", removed, 1, `rerun guard: commit [0-9a-f]{12} changes calc_test\.go: removes the test TestSub`},
		{"moved", moved, 0, `(?m)^OK   rerun QA_VALIDATION: sh scripts/test\.sh`},
		{"moved-cut", movedCut, 1, `rerun guard: commit [0-9a-f]{12} changes extra_test\.go: deletes this test file`},
		{"dead", dead, 0, `(?m)^OK   rerun QA_VALIDATION: sh scripts/test\.sh`},
		{"dead-renamed", deadRenamed, 1, `rerun guard: commit [0-9a-f]{12} changes extra_test\.go: deletes this test file`},
		{"dead-live", deadLive, 1, `rerun guard: commit [0-9a-f]{12} changes extra_test\.go: deletes this test file`},
		{"consolidated", consolidated, 0, `(?m)^OK   rerun QA_VALIDATION: sh scripts/test\.sh`},
		{"signed", signed, 0, `rerun guard: calc_test\.go: removes the test TestSub; the commit is signed by alice@example\.com`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := w.ciVerify(t, "rerun-"+c.name, c.tip, "--rerun")
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("verify --rerun: exit %d, want %d matching %s\n%s", code, c.code, c.want, out)
			}
		})
	}
}
