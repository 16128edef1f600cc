package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR61H353SkillInventoryInSessionLog: the team's protocol (2025-12-22)
// says "The agent MUST document available skills in session log under
// \"Skill Inventory\"". It names no path, so any file passed as its
// file_path evidence: a lazy agent recorded sessiongate.yaml and
// SKILL_VALIDATION passed. The protocol's session-log checks name the
// log's glob; a file outside it is refused, the session log is taken.
func TestR61H353SkillInventoryInSessionLog(t *testing.T) {
	doc := fixtureProtocol(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	const req = "SKILL_VALIDATION.document-available-skills-session"
	ctx := context.Background()
	e := newEnv(t, string(doc))
	gittest.Write(t, e.root, "notes.txt", "skills: none\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "notes")
	id := e.start("skills")
	_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceFilePath, Evidence: "notes.txt"})
	if err == nil || !strings.Contains(err.Error(), "session log") {
		t.Fatalf("another file as the session log's Skill Inventory: %v, want a refusal naming the session log", err)
	}
	log := ".agents/sessions/2025-12-22-session-01.md"
	gittest.Write(t, e.root, log, "# Session 01\n\n## Protocol Compliance\n\n### Skill Inventory\n\n- Get-PRContext.ps1\n")
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceFilePath, Evidence: log}); err != nil {
		t.Fatalf("the session log as evidence (honest): %v", err)
	}
}

// TestR61H353MemoryReadOfAnotherFile: "MUST read the skill-usage-mandatory
// memory using mcp__serena__read_memory with
// memory_file_name=\"skill-usage-mandatory\"" names a memory, not a path,
// so a content hash of scripts/greet.sh was taken as its read. The memory
// file itself is still taken (the honest fallback without Serena).
func TestR61H353MemoryReadOfAnotherFile(t *testing.T) {
	doc := fixtureProtocol(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	const req = "SKILL_VALIDATION.read-skill-usage-mandatory"
	ctx := context.Background()
	e := newEnv(t, string(doc))
	gittest.Write(t, e.root, "scripts/greet.sh", "#!/bin/sh\necho hello\n")
	gittest.Write(t, e.root, ".serena/memories/skill-usage-mandatory.md", "# Skills\n\nUse the scripts.\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "files")
	id := e.start("memory")
	_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceContentHash, Evidence: "scripts/greet.sh"})
	if err == nil || !strings.Contains(err.Error(), "skill-usage-mandatory") {
		t.Fatalf("a hash of another file as the memory's read: %v, want a refusal naming the memory", err)
	}
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceContentHash, Evidence: ".serena/memories/skill-usage-mandatory.md"}); err != nil {
		t.Fatalf("the memory file's hash (honest): %v", err)
	}
}

// TestR62H353TypedSkillListing: "The agent MUST list available GitHub
// skill scripts" (Get-ChildItem -Path ".claude/skills/github/scripts")
// met by typed tool output that named a script the folder does not hold,
// or `total 0` (round 61, helper 353). The listing as the folder gives it
// is taken.
func TestR62H353TypedSkillListing(t *testing.T) {
	doc := fixtureProtocol(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	ctx := context.Background()
	e := newEnv(t, string(doc))
	gittest.Write(t, e.root, ".claude/skills/github/scripts/Get-PRContext.ps1", "# Get-PRContext\n")
	gittest.Write(t, e.root, ".claude/skills/github/scripts/Post-IssueComment.ps1", "# Post-IssueComment\n")
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "skills")
	id := e.start("skills")
	const req = "SKILL_VALIDATION.list-available-github-skill"
	for _, lazy := range []string{"Get-PRContext.ps1\nNew-Release.ps1\n", "$ ls -la .claude/skills/github/scripts\ntotal 0\n"} {
		_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceToolOutput, Evidence: lazy})
		if err == nil || !strings.Contains(err.Error(), ".claude/skills/github/scripts") {
			t.Fatalf("typed listing %q: %v, want a refusal naming the folder", lazy, err)
		}
	}
	if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Requirement: req, Kind: session.EvidenceToolOutput, Evidence: "Get-PRContext.ps1\nPost-IssueComment.ps1\n"}); err != nil {
		t.Fatalf("the listing as the folder gives it (honest): %v", err)
	}
}
