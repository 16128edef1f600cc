// Package fixturerepo is the repository the team behind the real session
// protocols (../shared/fixtures/ai-agents) kept, as files: its handoff,
// an earlier session's log and QA report, skills, Serena memories, the qa
// sub-agent, markdownlint's config, the greeting script and its test. The
// compliance bench (bench/compliance fixtureFlow) and the real agent CLI
// tests (internal/agenttest) build their repositories from it, and fill
// the protocol's own session log template with StartLog and FinishLog.
package fixturerepo

import (
	"errors"
	"strings"
)

// Protocol versions, and their files in ../shared/fixtures/ai-agents.
const (
	V1218 = "2025-12-18"
	V1222 = "2025-12-22"
)

// File is each version's protocol document.
var File = map[string]string{
	V1218: "SESSION-PROTOCOL_2025-12-18_fd7d1d61d.md",
	V1222: "SESSION-PROTOCOL_2025-12-22_3821367d2.md",
}

const MarkdownlintConfig = `config:
  default: true
  MD007: false
  MD013: false
  MD029: false
  MD032: false
  MD060: false
ignores:
  - "node_modules/**"
`

const Handoff = `# Handoff

Read-only dashboard of where the project stands.

## Recent Sessions

- [Session 01](./sessions/2025-12-17-session-01.md): set up the scripts folder

## Next

- Add a name argument to the greeting script.
`

const OldLog = `# Session 01 - 2025-12-17

## Session Info

- **Date**: 2025-12-17
- **Branch**: feat/scripts
- **Starting Commit**: 0000000
- **Objective**: Set up the scripts folder

## Work Log

Created scripts/greet.sh and its test.
`

const OldQAReport = `# QA Report: scripts folder

- **Session**: 2025-12-17-session-01
- **Verdict**: PASS

All 2 checks passed.
`

const GreetScript = `#!/bin/sh
# greet prints a greeting.
echo "hello"
`

// GreetTest is the project's test script: it prints how many validations
// passed or failed and exits non-zero on a failure, like the team's
// Validate-*.ps1 scripts.
const GreetTest = `#!/bin/sh
fail=0
pass=0
check() { if [ "$1" = "$2" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: got '$1', want '$2'"; fi; }
check "$(sh scripts/greet.sh)" "hello"
for name in Ada Bob Cy Di Ed Flo; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done
if [ $fail -gt 0 ]; then echo "$fail validation(s) failed rc=1"; exit 1; fi
echo "$pass validation(s) passed"
`

// Options say what the repository holds besides its project files.
type Options struct {
	History bool // an earlier session's log (and, v1222, its QA report)
	Serena  bool // .mcp.json configures the serena MCP server
}

// Files are the repository's files other than the protocol document (at
// .agents/SESSION-PROTOCOL.md), sessiongate.yaml and package.json: path to
// content.
func Files(version string, o Options) map[string]string {
	f := ProjectFiles()
	f[".agents/HANDOFF.md"] = Handoff
	f[".agents/sessions/.gitkeep"] = ""
	f[".agents/planning/enhancement-PROJECT-PLAN.md"] = "# Enhancement Project Plan\n\n- [ ] Name argument for greet.sh\n- [ ] Documnet the scripts\n" // the typo a docs session fixes
	if o.History {
		f[".agents/sessions/2025-12-17-session-01.md"] = OldLog
		if version == V1222 {
			f[".agents/qa/2025-12-17-session-01-scripts.md"] = OldQAReport
		}
	}
	if o.Serena {
		// The team runs serena (its protocol's Phase 1 calls it).
		f[".mcp.json"] = `{"mcpServers":{"serena":{"command":"uvx","args":["--from","git+https://github.com/oraios/serena","serena","start-mcp-server"]}}}` + "\n"
	}
	if version == V1222 {
		// Phase 2.5 routes to the team's qa sub-agent.
		f[".claude/agents/qa.md"] = "---\nname: qa\ndescription: Validates a change against its tests\n---\n\n# QA\n\nRun the tests and report.\n"
		f[".claude/skills/github/scripts/Get-PRContext.ps1"] = "# Get-PRContext\n"
		f[".claude/skills/github/scripts/Post-IssueComment.ps1"] = "# Post-IssueComment\n"
		f[".serena/memories/skill-usage-mandatory.md"] = "# Skill usage\n\nUse the GitHub skill scripts, never raw gh calls.\n"
		f[".agents/governance/PROJECT-CONSTRAINTS.md"] = "# Project Constraints\n\n- Scripts are POSIX sh.\n"
	}
	f[".markdownlint-cli2.yaml"] = MarkdownlintConfig
	f[".gitignore"] = "node_modules/\n"
	return f
}

// ProjectFiles are the project itself: a README, the greeting script and
// its test (one check; the session adds the name checks).
func ProjectFiles() map[string]string {
	return map[string]string{
		"README.md":        "# greet\n\nA tiny greeting script.\n\n## Usage\n\n```sh\nsh scripts/greet.sh\n```\n",
		"scripts/greet.sh": GreetScript,
		"scripts/test.sh": strings.Replace(GreetTest,
			"for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1),
	}
}

// PackageJSON is package.json pinning the markdownlint-cli2 version.
func PackageJSON(markdownlintVersion string) string {
	return `{"private": true, "devDependencies": {"markdownlint-cli2": "` + markdownlintVersion + `"}}` + "\n"
}

// SessionLogTemplate is the protocol document's own "Session Log
// Template" block.
func SessionLogTemplate(doc string) (string, error) {
	_, after, ok := strings.Cut(doc, "\n## Session Log Template\n")
	if !ok {
		return "", errors.New("the protocol has no Session Log Template section")
	}
	_, after, ok = strings.Cut(after, "```markdown\n")
	if !ok {
		return "", errors.New("the Session Log Template has no ```markdown block")
	}
	body, _, ok := strings.Cut(after, "\n```\n")
	if !ok {
		return "", errors.New("the Session Log Template block is not closed")
	}
	return body + "\n", nil
}

// LogVars fill a session log.
type LogVars struct {
	Date, NN, Branch, Start, Objective, Skills string
	Task, Action, Decision, Files              string
	Lint, Status, Commits, QAReport, Notes     string
}

// StartLog is the template with Session Info and the Session Start
// checklist filled, as the agent writes it early in the session. The work
// log and the end checklist stay template until the end of the session.
func StartLog(tmpl string, v LogVars) string {
	head, tail, _ := strings.Cut(tmpl, "\n## Work Log\n")
	head = strings.NewReplacer(
		"Session NN - YYYY-MM-DD", "Session "+v.NN+" - "+v.Date,
		"YYYY-MM-DD", v.Date,
		"[branch name]", v.Branch,
		"[SHA]", v.Start,
		"[What this session aims to accomplish]", v.Objective,
		"[clean/dirty]", "clean",
		"- [List from directory scan]", v.Skills,
		"| [ ] |", "| [x] |",
	).Replace(head)
	return head + "\n## Work Log\n" + tail
}

// FinishLog fills what v holds of the work log and the Session End part:
// the agent fills it in three steps (the work, then the lint output, then
// the commits and final status).
func FinishLog(log string, v LogVars) string {
	head, tail, _ := strings.Cut(log, "\n## Work Log\n")
	var pairs []string
	if v.Task != "" {
		pairs = append(pairs,
			"### [Task/Topic]", "### "+v.Task,
			"In Progress / Complete / Blocked", "Complete",
			"- [Action taken]", "- "+v.Action,
			"- [Decision]: [Rationale]", "- "+v.Decision,
			"- [Challenge]: [Resolution]", "- None this session",
			"- `[path]` - [What changed]", v.Files,
			"| [ ] |", "| [x] |",
			"Commit SHA: _______", "Commit SHA: see Commits This Session",
			"Doc: _______", "Skipped: single-task session",
			"QA report: `.agents/qa/[report].md`", "QA report: "+v.QAReport,
			"- [Important context]\n- [Gotchas discovered]\n- [Recommendations]", v.Notes)
	}
	if v.Lint != "" {
		pairs = append(pairs, "[Paste markdownlint output here]", "```text\n"+strings.TrimSpace(v.Lint)+"\n```")
	}
	if v.Status != "" {
		pairs = append(pairs, "[Paste git status output here]", "```text\n"+strings.TrimSpace(v.Status)+"\n```",
			"- `[SHA]` - [message]", v.Commits)
	}
	return head + "\n## Work Log\n" + strings.NewReplacer(pairs...).Replace(tail)
}
