package compliance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Protocol versions the scenarios are built from.
const (
	v1218   = "2025-12-18"
	v1222   = "2025-12-22"
	starter = "starter"
	// starterNoMain is the starter with one sentence a team adds to its
	// Git State phase (see starterBranchRule).
	starterNoMain = "starter+branch rule"
)

var fixtureFile = map[string]string{
	v1218: "SESSION-PROTOCOL_2025-12-18_fd7d1d61d.md",
	v1222: "SESSION-PROTOCOL_2025-12-22_3821367d2.md",
}

// starterBranchRule is what a team adds to the starter's Git State phase
// when it wants feature branches: the shape later versions of the real
// protocol use ("MUST NOT work on main").
const starterBranchRule = "4. The agent MUST NOT work on the default branch: it creates a feature branch before changing anything.\n"

// markdownlintConfig is the repository's own linter config, what the team
// needs for its tree to lint clean: the session log template puts lists
// right under a label line and aligns no table columns (MD032, MD060), and
// the 2025-12-22 protocol itself trips MD007/MD029 at its nested "If the
// serena MCP is not available" item (lines 103-105). With those on, the
// `npx markdownlint-cli2 --fix "**/*.md"` the protocol demands rewrites the
// protocol document, a protected file, and the commit is refused.
const markdownlintConfig = `config:
  default: true
  MD007: false
  MD013: false
  MD029: false
  MD032: false
  MD060: false
ignores:
  - "node_modules/**"
`

const handoff = `# Handoff

Read-only dashboard of where the project stands.

## Recent Sessions

- [Session 01](./sessions/2025-12-17-session-01.md): set up the scripts folder

## Next

- Add a name argument to the greeting script.
`

const oldLog = `# Session 01 - 2025-12-17

## Session Info

- **Date**: 2025-12-17
- **Branch**: feat/scripts
- **Starting Commit**: 0000000
- **Objective**: Set up the scripts folder

## Work Log

Created scripts/greet.sh and its test.
`

const oldQAReport = `# QA Report: scripts folder

- **Session**: 2025-12-17-session-01
- **Verdict**: PASS

All 2 checks passed.
`

const greetScript = `#!/bin/sh
# greet prints a greeting.
echo "hello"
`

// greetTest is the project's test script: it prints how many validations
// passed or failed and exits non-zero on a failure, like the team's
// Validate-*.ps1 scripts.
const greetTest = `#!/bin/sh
fail=0
pass=0
check() { if [ "$1" = "$2" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: got '$1', want '$2'"; fi; }
check "$(sh scripts/greet.sh)" "hello"
for name in Ada Bob Cy Di Ed Flo; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done
if [ $fail -gt 0 ]; then echo "$fail validation(s) failed rc=1"; exit 1; fi
echo "$pass validation(s) passed"
`

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
	w.write(".agents/HANDOFF.md", handoff)
	w.write(".agents/sessions/.gitkeep", "")
	w.write(".agents/planning/enhancement-PROJECT-PLAN.md", "# Enhancement Project Plan\n\n- [ ] Name argument for greet.sh\n- [ ] Documnet the scripts\n") // the typo a docs session fixes
	if withHistory {
		w.write(".agents/sessions/2025-12-17-session-01.md", oldLog)
		if version == v1222 {
			w.write(".agents/qa/2025-12-17-session-01-scripts.md", oldQAReport)
		}
	}
	if !w.noSerena {
		// The team runs serena (its protocol's Phase 1 calls it).
		w.write(".mcp.json", `{"mcpServers":{"serena":{"command":"uvx","args":["--from","git+https://github.com/oraios/serena","serena","start-mcp-server"]}}}`+"\n")
	}
	if version == v1222 {
		// Phase 2.5 routes to the team's qa sub-agent.
		w.write(".claude/agents/qa.md", "---\nname: qa\ndescription: Validates a change against its tests\n---\n\n# QA\n\nRun the tests and report.\n")
		w.write(".claude/skills/github/scripts/Get-PRContext.ps1", "# Get-PRContext\n")
		w.write(".claude/skills/github/scripts/Post-IssueComment.ps1", "# Post-IssueComment\n")
		w.write(".serena/memories/skill-usage-mandatory.md", "# Skill usage\n\nUse the GitHub skill scripts, never raw gh calls.\n")
		w.write(".agents/governance/PROJECT-CONSTRAINTS.md", "# Project Constraints\n\n- Scripts are POSIX sh.\n")
	}
	projectFiles(w)
	w.write("package.json", `{"private": true, "devDependencies": {"markdownlint-cli2": "`+markdownlintVersion(w)+`"}}`+"\n")
	w.write(".markdownlint-cli2.yaml", markdownlintConfig)
	w.write(".gitignore", "node_modules/\n")
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
	w.write("README.md", "# greet\n\nA tiny greeting script.\n\n## Usage\n\n```sh\nsh scripts/greet.sh\n```\n")
	w.write("scripts/greet.sh", greetScript)
	w.write("scripts/test.sh", strings.Replace(greetTest,
		"for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1))
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
	_, after, ok := strings.Cut(string(b), "\n## Session Log Template\n")
	if !ok {
		w.t.Fatal("fixture has no Session Log Template section")
	}
	_, after, ok = strings.Cut(after, "```markdown\n")
	if !ok {
		w.t.Fatal("Session Log Template has no ```markdown block")
	}
	body, _, ok := strings.Cut(after, "\n```\n")
	if !ok {
		w.t.Fatal("Session Log Template block is not closed")
	}
	return body + "\n"
}

// logVars fill a session log.
type logVars struct {
	date, nn, branch, start, objective, skills string
	task, action, decision, files              string
	lint, status, commits, qaReport, notes     string
}

// startLog is the template with Session Info and the Session Start
// checklist filled, as the agent writes it early in the session. The work
// log and the end checklist stay template until the end of the session.
func startLog(tmpl string, v logVars) string {
	head, tail, _ := strings.Cut(tmpl, "\n## Work Log\n")
	head = strings.NewReplacer(
		"Session NN - YYYY-MM-DD", "Session "+v.nn+" - "+v.date,
		"YYYY-MM-DD", v.date,
		"[branch name]", v.branch,
		"[SHA]", v.start,
		"[What this session aims to accomplish]", v.objective,
		"[clean/dirty]", "clean",
		"- [List from directory scan]", v.skills,
		"| [ ] |", "| [x] |",
	).Replace(head)
	return head + "\n## Work Log\n" + tail
}

// finishLog fills what v holds of the work log and the Session End part:
// the agent fills it in three steps (the work, then the lint output, then
// the commits and final status).
func finishLog(log string, v logVars) string {
	head, tail, _ := strings.Cut(log, "\n## Work Log\n")
	var pairs []string
	if v.task != "" {
		pairs = append(pairs,
			"### [Task/Topic]", "### "+v.task,
			"In Progress / Complete / Blocked", "Complete",
			"- [Action taken]", "- "+v.action,
			"- [Decision]: [Rationale]", "- "+v.decision,
			"- [Challenge]: [Resolution]", "- None this session",
			"- `[path]` - [What changed]", v.files,
			"| [ ] |", "| [x] |",
			"Commit SHA: _______", "Commit SHA: see Commits This Session",
			"Doc: _______", "Skipped: single-task session",
			"QA report: `.agents/qa/[report].md`", "QA report: "+v.qaReport,
			"- [Important context]\n- [Gotchas discovered]\n- [Recommendations]", v.notes)
	}
	if v.lint != "" {
		pairs = append(pairs, "[Paste markdownlint output here]", "```text\n"+strings.TrimSpace(v.lint)+"\n```")
	}
	if v.status != "" {
		pairs = append(pairs, "[Paste git status output here]", "```text\n"+strings.TrimSpace(v.status)+"\n```",
			"- `[SHA]` - [message]", v.commits)
	}
	return head + "\n## Work Log\n" + strings.NewReplacer(pairs...).Replace(tail)
}
