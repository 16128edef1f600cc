package compliance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/fixturerepo"
)

// Protocol versions the scenarios are built from.
const (
	v1218   = fixturerepo.V1218
	v1222   = fixturerepo.V1222
	starter = "starter"
	// starterNoMain is the starter with one sentence a team adds to its
	// Git State phase (see starterBranchRule).
	starterNoMain = "starter+branch rule"
)

var fixtureFile = fixturerepo.File

// starterBranchRule is what a team adds to the starter's Git State phase
// when it wants feature branches: the shape later versions of the real
// protocol use ("MUST NOT work on main").
const starterBranchRule = "4. The agent MUST NOT work on the default branch: it creates a feature branch before changing anything.\n"

// The fixture repository's files (internal/fixturerepo), by the names
// the scenarios use.
const (
	markdownlintConfig = fixturerepo.MarkdownlintConfig
	handoff            = fixturerepo.Handoff
	oldLog             = fixturerepo.OldLog
	oldQAReport        = fixturerepo.OldQAReport
	greetScript        = fixturerepo.GreetScript
	greetTest          = fixturerepo.GreetTest
)

// fixtureRepo builds a repository the way the team behind the real
// protocol kept theirs: the protocol at .agents/SESSION-PROTOCOL.md, a
// handoff, an earlier session's log (and QA report), skills, Serena
// memories, markdownlint from package.json, and sessiongate adopted with
// `sessiongate init`. Committed on main and pushed,
// then sessiongate's git hooks installed.
func fixtureRepo(w *world, version string, withHistory bool) {
	w.t.Helper()
	proto, err := os.ReadFile(filepath.Join(fixtures, fixtureFile[version]))
	if err != nil {
		w.t.Fatalf("read fixture: %v", err)
	}
	w.write(".agents/SESSION-PROTOCOL.md", string(proto))
	// Adopt sessiongate as a new user would: init finds the protocol and
	// writes only sessiongate.yaml pointing at it.
	w.sgOK("init")
	if p := w.read("sessiongate.yaml"); !strings.Contains(p, "protocol: .agents/SESSION-PROTOCOL.md") {
		w.t.Fatalf("sessiongate init did not adopt .agents/SESSION-PROTOCOL.md:\n%s", p)
	}
	for p, body := range fixturerepo.Files(version, fixturerepo.Options{History: withHistory, Serena: !w.noSerena}) {
		w.write(p, body)
	}
	w.write("package.json", fixturerepo.PackageJSON(markdownlintVersion(w)))
	linkNodeModules(w)
	publish(w)
}

// starterRepo is a repository that adopts sessiongate from scratch:
// `sessiongate init` writes the starter protocol and config.
func starterRepo(w *world, branchRule bool) {
	w.t.Helper()
	projectFiles(w)
	w.sgOK("init")
	if branchRule {
		p := w.read("SESSION-PROTOCOL.md")
		anchor := "3. The agent SHOULD note the starting commit in its session log.\n"
		if !strings.Contains(p, anchor) {
			w.t.Fatalf("starter protocol changed: no %q in its Git State phase; update starterBranchRule", anchor)
		}
		w.write("SESSION-PROTOCOL.md", strings.Replace(p, anchor, anchor+starterBranchRule, 1))
	}
	publish(w)
}

func projectFiles(w *world) {
	for p, body := range fixturerepo.ProjectFiles() {
		w.write(p, body)
	}
}

// markdownlintVersion is the version of the markdownlint-cli2 the
// repository links, as its package.json would pin it.
func markdownlintVersion(w *world) string {
	var pkg struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(nodeModules, "markdownlint-cli2", "package.json"))
	if err != nil || json.Unmarshal(b, &pkg) != nil || pkg.Version == "" {
		return "*"
	}
	return pkg.Version
}

// linkNodeModules gives the repository the markdownlint-cli2 its
// package.json names, so the protocol's `npx markdownlint-cli2` runs it
// offline (npx looks in the project's node_modules/.bin, not in PATH).
func linkNodeModules(w *world) {
	if nodeModules == "" {
		return
	}
	if err := os.Symlink(nodeModules, filepath.Join(w.root, "node_modules")); err != nil {
		w.t.Fatal(err)
	}
}

// publish commits the set-up on main, pushes it to origin, and installs
// sessiongate's git hooks.
func publish(w *world) {
	w.git("add", "-A")
	w.git("commit", "-q", "-m", "chore: initial project")
	w.git("push", "-q", "-u", "origin", "main")
	w.git("remote", "set-head", "origin", "main")
	w.sgOK("install")
	w.base = w.git("rev-parse", "HEAD")
}

// sessionLogTemplate is the protocol's own "Session Log Template" block.
func sessionLogTemplate(w *world, version string) string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, fixtureFile[version]))
	if err != nil {
		w.t.Fatal(err)
	}
	tmpl, err := fixturerepo.SessionLogTemplate(string(b))
	if err != nil {
		w.t.Fatalf("fixture %s: %v", fixtureFile[version], err)
	}
	return tmpl
}

// The session log's fill (internal/fixturerepo).
type logVars = fixturerepo.LogVars

var (
	startLog  = fixturerepo.StartLog
	finishLog = fixturerepo.FinishLog
)
