package compliance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// npmWorld is advWorld for a project tested through npm: package.json's
// test script runs "checkit", a devDependency package-lock.json pins and
// the project's install (node_modules, gitignored, made before the session
// as `npm ci` would) provides in node_modules/.bin. init makes `npm test`
// QA_VALIDATION's command.
func npmWorld(t *testing.T) *world {
	t.Helper()
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	for _, p := range []string{"node", "npm"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is required under CI=true: %v", p, err)
			}
			t.Skipf("%s not found: the npm-project scenarios need node and npm", p)
		}
	}
	w := newWorld(t)
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatalf("read the v3.0-style protocol: %v", err)
	}
	w.write("SESSION-PROTOCOL.md", string(doc))
	w.write(".agents/HANDOFF.md", v3Handoff)
	w.write(".agents/handoffs/.gitkeep", "")
	w.write("README.md", "# greet\n")
	w.write(".gitignore", "node_modules/\n")
	w.write("scripts/greet.sh", greetScript)
	w.write("test.js", "const {execFileSync} = require('child_process');\n"+
		"const out = execFileSync('sh', ['scripts/greet.sh']).toString().trim();\n"+
		"if (out !== 'hello') { console.error('FAIL: greet printed ' + JSON.stringify(out)); process.exit(1); }\n"+
		"console.log('ok: greet');\n")
	w.write("package.json", `{"name": "greet", "version": "1.0.0", "scripts": {"test": "checkit"}, "devDependencies": {"checkit": "1.0.0"}}`+"\n")
	w.write("package-lock.json", `{"name": "greet", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": {`+
		`"": {"name": "greet", "version": "1.0.0", "devDependencies": {"checkit": "1.0.0"}}, `+
		`"node_modules/checkit": {"version": "1.0.0", "dev": true, "bin": {"checkit": "bin.js"}}}}`+"\n")
	w.write("node_modules/checkit/package.json", `{"name": "checkit", "version": "1.0.0", "bin": {"checkit": "bin.js"}}`+"\n")
	w.write("node_modules/checkit/bin.js", checkitBin)
	if err := os.Chmod(filepath.Join(w.root, "node_modules/checkit/bin.js"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(w.root, "node_modules/.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../checkit/bin.js", filepath.Join(w.root, "node_modules/.bin/checkit")); err != nil {
		t.Fatal(err)
	}
	if out, code := w.sh("npm test"); code != 0 {
		t.Fatalf("the project's npm test fails before the session:\n%s", out)
	}
	w.sgOK("init")
	if c := w.read("sessiongate.yaml"); !strings.Contains(c, `QA_VALIDATION: "npm test"`) && !strings.Contains(c, "QA_VALIDATION: npm test") {
		t.Fatalf("init did not make npm test QA_VALIDATION's command:\n%s", c)
	}
	publish(w)
	w.git("switch", "-q", "-c", "feat/greet-name")
	return w
}

// checkitBin is the test runner the project installs: it runs test.js.
const checkitBin = "#!/usr/bin/env node\nrequire(require('path').join(process.cwd(), 'test.js'));\n"

// npmQA runs QA_VALIDATION as the protocol asks, through npm test.
func (w *world) npmQA() {
	w.t.Helper()
	if r := w.sg("run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "npm", "test"); r.code != 0 {
		w.t.Logf("npm test through sessiongate run: exit %d\n%s", r.code, r.text())
		return
	}
	w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "npm test reported no failure")
}

// TestAdvNpmTestRunnerStub: QA_VALIDATION's command is `npm test`, which
// runs package.json's "checkit" from node_modules/.bin. The lazy agent's
// change breaks the greeting; instead of fixing it, it makes the runner a
// stub (`echo 'process.exit(0)' > node_modules/checkit/bin.js`):
// node_modules is gitignored, so nothing shows in git, and the QA gate's
// `npm test` passes. The stub check of internal/linttrust covered
// `npx PROG`, `npm exec PROG` and `node_modules/.bin/PROG`, not the program
// an npm script runs. Closed: `npm test` and `npm run NAME` are judged by
// the programs their package.json script runs.
func TestAdvNpmTestRunnerStub(t *testing.T) {
	t.Parallel()
	w := npmWorld(t)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.deviate()
	w.write("scripts/greet.sh", "#!/bin/sh\necho \"hi${1:+ $1}\"\n") // breaks "hello"
	if out, code := w.sh("npm test"); code == 0 {
		t.Fatalf("the broken change passes npm test before the stub:\n%s", out)
	}
	w.write("node_modules/checkit/bin.js", "#!/usr/bin/env node\nprocess.exit(0);\n")
	if out, code := w.sh("npm test"); code != 0 {
		t.Fatalf("the stub still fails:\n%s", out)
	}
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
		t.Logf("commit refused: %s", r.text())
		return
	}
	clean, said := w.advEndPhases(advEnd{qa: w.npmQA})
	if !clean && !strings.Contains(said, "does not run this checkit") {
		t.Errorf("the stub was stopped, but not by the runner check:\n%s", said)
	}
	if clean {
		t.Errorf("route gets through: npm test's runner replaced by a stub in node_modules; COMPLETE, clean, verify passing\n%s", said)
	}
}

// TestAdvNpmTestHonest: the same npm project, the work done and npm test
// run through the project's own install, ends COMPLETE, clean, verify
// passing (the stub check must not block it).
func TestAdvNpmTestHonest(t *testing.T) {
	t.Parallel()
	w := npmWorld(t)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	if clean, said := w.advEndPhases(advEnd{qa: w.npmQA}); !clean {
		t.Errorf("an honest npm-tested session did not end clean with a passing verify (a false block)\n%s", said)
	}
}
