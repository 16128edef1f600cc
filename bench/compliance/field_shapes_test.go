package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Field pass, round 16 (t7): more project shapes, each an honest session
// from `sessiongate init` to `verify` run as CI runs it: a fresh clone of
// what was pushed, detached at the pushed commit, the records ref fetched.

const fieldRustToml = "[package]\nname = \"greet\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n"
const fieldRustLib = "/// Greets name.\npub fn hello(name: &str) -> String {\n    format!(\"hello {name}\")\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn hello() {\n        assert_eq!(super::hello(\"Ada\"), \"hello Ada\");\n    }\n}\n"

// crlf turns a text's line ends into Windows' (an editor on Windows).
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// fieldShapeCases are the honest sessions of the round-16 shapes.
var fieldShapeCases = []fieldCase{
	{
		name:    "rust crate: fix a doc comment",
		files:   map[string]string{"Cargo.toml": fieldRustToml, "src/lib.rs": fieldRustLib, ".gitignore": "/target\nCargo.lock\n", "README.md": "# greet\n"},
		wantCmd: "cargo test",
		needs:   []string{"cargo"},
		work: func(w *world) {
			w.write("src/lib.rs", strings.Replace(fieldRustLib, "/// Greets name.", "/// Greets name with \"hello\".", 1))
		},
		msg: "docs(lib): say what hello prints",
	},
	{
		name:          "default branch master",
		defaultBranch: "master",
		files:         fieldScriptProject,
		wantCmd:       "sh scripts/test.sh",
		work:          func(w *world) { w.write("scripts/greet.sh", fieldGreetComment) },
		msg:           "docs(scripts): say what greet prints",
	},
	{
		// A Windows checkout: every text file CRLF in the work tree (eol=crlf),
		// LF in git; the agent's handoff is written with CRLF too. File
		// evidence is hashed from the work tree; verify reads git's blob.
		name: "windows line ends (eol=crlf)",
		files: map[string]string{".gitattributes": "* text=auto eol=crlf\n*.png binary\n", "README.md": crlf("# greet\n"),
			"scripts/greet.sh": greetScript, "scripts/test.sh": fieldScriptTest, "docs/usage.md": crlf("# Usage\n\nRun scripts/greet.sh.\n")},
		wantCmd:     "sh scripts/test.sh",
		work:        func(w *world) { w.write("docs/usage.md", crlf("# Usage\n\nRun scripts/greet.sh; it prints hello.\n")) },
		msg:         "docs: say what greet prints",
		handoffBody: crlf("# Handoff 2026-08-20-01\n\n## Done\n\nThe usage page says what greet prints.\n\n## Next\n\nNothing planned.\n"),
	},
	{
		// git-lfs attributes with git-lfs itself not installed (a clone
		// made without it): the attributes name a filter git does not have.
		name:    "git-lfs attributes",
		files:   map[string]string{".gitattributes": "*.png filter=lfs diff=lfs merge=lfs -text\n*.bin filter=lfs diff=lfs merge=lfs -text\n", "assets/logo.png": "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n", "README.md": "# greet\n", "scripts/greet.sh": greetScript, "scripts/test.sh": fieldScriptTest},
		wantCmd: "sh scripts/test.sh",
		work: func(w *world) {
			w.write("assets/banner.bin", "version https://git-lfs.github.com/spec/v1\noid sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\nsize 4\n")
			w.write("scripts/greet.sh", fieldGreetComment)
		},
		msg: "feat: add the banner and say what greet prints",
	},
	{
		name:    "git submodule: bump it and use it",
		files:   fieldScriptProject,
		wantCmd: "sh scripts/test.sh",
		setup: func(w *world) {
			lib := filepath.Join(filepath.Dir(w.root), "lib")
			w.gitIn(filepath.Dir(w.root), "init", "-q", "-b", "main", lib)
			w.write(filepath.Join(lib, "words.txt"), "hello\n")
			w.gitIn(lib, "add", "-A")
			w.gitIn(lib, "commit", "-q", "-m", "words")
			w.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib")
		},
		work: func(w *world) {
			lib := filepath.Join(filepath.Dir(w.root), "lib")
			w.write(filepath.Join(lib, "words.txt"), "hello\nhi\n")
			w.gitIn(lib, "commit", "-q", "-am", "more words")
			sub := filepath.Join(w.root, "vendor", "lib")
			w.gitIn(sub, "-c", "protocol.file.allow=always", "pull", "-q", "origin", "main")
			w.write("scripts/greet.sh", fieldGreetComment)
		},
		msg: "chore(deps): bump vendor/lib; say what greet prints",
	},
	{
		name: "node: jest-style test script under npm, with a monorepo Makefile",
		files: map[string]string{"Makefile": "check:\n\tnode --test\n", "package.json": fieldNodePackage, "package-lock.json": fieldNodeLock,
			"greet.js": fieldNodeGreet, "test/greet.test.js": fieldNodeGreetTest, "README.md": "# greet\n"},
		wantCmd: "make check",
		needs:   []string{"node", "make"},
		work:    func(w *world) { w.write("greet.js", "// hello greets name.\n"+fieldNodeGreet) },
		msg:     "docs: comment hello",
	},
}

// fieldCIVerify pushes the session's branch through the hooks and runs
// verify where CI does: a fresh clone, detached at the pushed commit, the
// records ref fetched. A failure is a false FAIL on honest work.
func (w *world) fieldCIVerify(t *testing.T) {
	t.Helper()
	w.gitOK("push", "-q", "-u", "origin", "HEAD")
	head := w.git("rev-parse", "HEAD")
	dir := filepath.Dir(w.root)
	ci := filepath.Join(dir, "ci")
	w.gitIn(dir, "clone", "-q", "--no-checkout", filepath.Join(dir, "origin.git"), ci)
	w.gitIn(ci, "checkout", "-q", "--detach", head)
	w.gitIn(ci, "fetch", "-q", "origin", "refs/sessiongate/records:refs/sessiongate/records")
	if r := w.exec(ci, "", binary, "verify", w.base+".."+head); r.code != 0 {
		t.Fatalf("verify in CI's checkout (detached, fresh clone) failed an honest session (a false FAIL):\n%s", r.text())
	}
}

// TestFieldHonestShapes runs each round-16 shape as one honest session,
// then verify as CI runs it.
func TestFieldHonestShapes(t *testing.T) {
	t.Parallel()
	runHonestFieldCases(t, fieldShapeCases)
}

// TestFieldWindowsTeamProtocol: the real team's compliant sessions (both
// fixture versions) in a Windows checkout: .gitattributes makes every
// Markdown file CRLF in the work tree and LF in git, and the agent writes
// its session log, QA report and edits with CRLF. The protocol's pinned
// hash, the session log's sections and placeholders, file evidence and
// verify's re-check from git must all read the same document.
func TestFieldWindowsTeamProtocol(t *testing.T) {
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	if _, err := os.Stat(fixtures); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the real protocols are required under CI=true: %v", err)
		}
		t.Skipf("real protocol fixtures not found at %s", fixtures)
	}
	if nodeModules == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("markdownlint-cli2 not found in .ci/node/node_modules: the real protocols' Quality Checks run it")
		}
		t.Skip("markdownlint-cli2 not found in .ci/node/node_modules (npm ci there)")
	}
	for _, name := range []string{"feature-2025-12-18", "feature-2025-12-22", "docs-2025-12-22"} {
		var sc scenario
		for _, s := range scenarios {
			if s.name == name {
				sc = s
			}
		}
		if sc.name == "" {
			t.Fatalf("no scenario %s", name)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.crlfDocs = true
			w.write(".gitattributes", "*.md text eol=crlf\n")
			r := classify(sc, runFlow(w, sc.run))
			if r.falseRes || len(r.falseFails) > 0 {
				t.Errorf("an honest session on the team's protocol in a CRLF checkout: %s: %s (false FAILs: %v)", r.verdict, r.why, r.falseFails)
			}
		})
	}
}

// TestFieldWindowsProtocolEditStillCaught is the lazy twin of
// TestFieldWindowsTeamProtocol: in the same CRLF checkout, a protocol
// whose line ends match the committed text but whose words do not (a MUST
// made a MAY) is still a protected change at session start.
func TestFieldWindowsProtocolEditStillCaught(t *testing.T) {
	t.Parallel()
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	if _, err := os.Stat(fixtures); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the real protocols are required under CI=true: %v", err)
		}
		t.Skipf("real protocol fixtures not found at %s", fixtures)
	}
	w := newWorld(t)
	w.crlfDocs = true
	w.write(".gitattributes", "*.md text eol=crlf\n")
	fixtureRepo(w, v1222, false)
	const p = ".agents/SESSION-PROTOCOL.md"
	doc := w.read(p)
	if !strings.Contains(doc, "The agent MUST NOT update `.agents/HANDOFF.md` directly") {
		t.Fatal("the fixture protocol no longer says HANDOFF.md stays untouched")
	}
	w.write(p, strings.Replace(doc, "The agent MUST NOT update `.agents/HANDOFF.md` directly", "The agent MAY update `.agents/HANDOFF.md` directly", 1))
	r := w.sg("session", "start", "--objective", "edit the handoff")
	if r.code != 1 || !strings.Contains(r.text(), "protected files changed") {
		t.Fatalf("a CRLF protocol with a changed word was not refused at session start (exit %d):\n%s", r.code, r.text())
	}
}
