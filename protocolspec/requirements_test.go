package protocolspec

import (
	"strings"
	"testing"
)

func reqIDs(p *Phase) []string {
	var out []string
	for _, r := range p.Requirements {
		out = append(out, r.ID)
	}
	return out
}

// TestRequirementIDsAreStable: an id depends on the requirement's own
// leading words, so adding, removing or reordering other requirements,
// editing prose and shifting lines leave it alone.
func TestRequirementIDsAreStable(t *testing.T) {
	before := parseOK(t, inStart("### Phase 1: P\n\n1. The agent MUST read the handoff.\n2. The agent MUST list the skills.\n3. The agent SHOULD note the commit.\n"))
	after := parseOK(t, inStart("### Phase 1: P\n\nSome new introduction.\n\nMore prose.\n\n1. The agent MUST verify the branch.\n2. The agent SHOULD note the commit.\n3. The agent MUST list the skills.\n4. The agent MUST read the handoff.\n"))
	want := map[string]bool{"P.read-handoff": true, "P.list-skills": true, "P.note-commit": true}
	got := map[string]bool{}
	for _, id := range reqIDs(&after.Phases[0]) {
		got[id] = true
	}
	for id := range want {
		if !contains(reqIDs(&before.Phases[0]), id) || !got[id] {
			t.Errorf("id %s not stable: before %v after %v", id, reqIDs(&before.Phases[0]), reqIDs(&after.Phases[0]))
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func TestRequirementFlags(t *testing.T) {
	spec := parseOK(t, inStart(`### Phase 1: Skills (BLOCKING)

The agent MUST validate the skills before work. This is a gate.

1. The agent MUST verify the skills directory
2. If the MCP is not available, the agent MUST read the file instead
3. The agent MUST read the file
4. The agent MUST read the file
5. The agent MUST NOT skip this
6. When on a feature branch the agent SHOULD push

| Req | Step | Status | Evidence |
|-----|------|--------|----------|
| MUST | Run the linter | [ ] | output |

- [ ] The agent MUST sign off

### Phase 2: Issue (BLOCKING when issue context exists)

- The agent MUST read the issue.
`))
	p := &spec.Phases[0]
	want := []struct {
		id         string
		cond, summ bool
	}{
		{"SKILLS.validate-skills-before-work", false, true},
		{"SKILLS.verify-skills-directory", false, false},
		{"SKILLS.mcp-not-available-read", true, false},
		{"SKILLS.read-file", false, false},
		{"SKILLS.read-file-2", false, false},
		{"SKILLS.not-skip", false, false},
		{"SKILLS.feature-branch-push", true, false},
		{"SKILLS.sign-off", false, false},
	}
	if len(p.Requirements) != len(want) {
		t.Fatalf("requirements %v", reqIDs(p))
	}
	for i, w := range want {
		r := p.Requirements[i]
		if r.ID != w.id || r.Conditional != w.cond || r.Summary != w.summ {
			t.Errorf("requirement %d: %s cond %v summary %v, want %+v", i, r.ID, r.Conditional, r.Summary, w)
		}
	}
	// The table row has its own id; the task item shares the requirement's.
	if len(p.Checklist) != 2 || p.Checklist[0].ID != "SKILLS.run-linter" || p.Checklist[1].ID != "SKILLS.sign-off" {
		t.Fatalf("checklist ids %+v", p.Checklist)
	}
	var owed []string
	for _, r := range p.OwedRequirements() {
		owed = append(owed, r.ID)
	}
	if strings.Join(owed, ",") != "SKILLS.verify-skills-directory,SKILLS.mcp-not-available-read,SKILLS.read-file,SKILLS.read-file-2,SKILLS.sign-off" {
		t.Fatalf("owed %v: every MUST but the summary (MUST NOT and SHOULD owe none)", owed)
	}
	if r, ok := p.Requirement("read-file-2"); !ok || r.ID != "SKILLS.read-file-2" {
		t.Fatal("slug lookup within the phase")
	}
	if r, ok := p.Requirement("SKILLS.run-linter"); !ok || r.Level != LevelMust {
		t.Fatal("checklist rows are looked up too")
	}
	if q, _, ok := spec.FindRequirement("ISSUE.read-issue"); !ok || q.ID != "ISSUE" {
		t.Fatal("FindRequirement across phases")
	}
	if r := spec.Phases[1].Requirements[0]; !r.Conditional {
		t.Fatal("a requirement under a conditional phase is conditional")
	}
	// A phase whose only MUSTs are table rows owes the rows.
	rows := parseOK(t, inStart("### Phase 1: T\n\n| Req | Step | Status | Evidence |\n|--|--|--|--|\n| MUST | Run lint | [ ] | |\n| SHOULD | Tidy | [ ] | |\n"))
	if o := rows.Phases[0].OwedRequirements(); len(o) != 1 || o[0].ID != "T.run-lint" {
		t.Fatalf("rows owed %+v", o)
	}
}

func TestFreshAndOriginOptions(t *testing.T) {
	spec := parseOK(t, inStart(`### Phase 1: Session Log (REQUIRED)

- The agent MUST create a session log.

### Phase 2: Keep (REQUIRED)

<!-- gate: file_exists "tools/lint.sh" -->

- The agent MUST keep the lint script.

### Phase 3: Report (REQUIRED)

<!-- gate: file_exists "qa/*.md" -->

- The agent MUST write a QA report.

### Phase 4: Explicit (REQUIRED)

<!-- gate: file_exists "out/*" fresh=true -->
<!-- gate: evidence tool_output origin=observed -->

### Phase 5: Opt Out (REQUIRED)

<!-- gate: file_exists "docs/*.md" fresh=false -->

- The agent MUST update the docs.
`))
	fresh := func(i int) bool { return spec.Phases[i].Checks[0].Fresh }
	if !fresh(0) || fresh(1) || !fresh(2) || !fresh(3) || fresh(4) {
		t.Fatalf("fresh: builtin %v keep %v create %v explicit %v opt-out %v", fresh(0), fresh(1), fresh(2), fresh(3), fresh(4))
	}
	if !spec.Phases[3].Checks[1].Observed || spec.Phases[3].Checks[0].Observed {
		t.Fatal("origin=observed")
	}
	for _, c := range []struct{ directive, want string }{
		{`command "x" fresh=true`, "fresh= applies only to file_exists"},
		{`file_exists "x" fresh=yes`, "bad fresh="},
		{`file_exists "x" origin=observed`, "origin= applies only to evidence and must_evidence"},
		{`must_evidence origin=claimed`, "bad origin="},
	} {
		if _, err := parseDirective(c.directive); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.directive, err, c.want)
		}
	}
	if d, err := parseDirective(`must_evidence origin=observed`); err != nil || !d.check.Observed {
		t.Fatalf("must_evidence origin=observed: %+v %v", d, err)
	}
}

// TestRealProtocolRequirementIDs: on both fixture versions every
// requirement and phase checklist row has an id, prefixed by its phase,
// unique across the document.
func TestRealProtocolRequirementIDs(t *testing.T) {
	for _, name := range []string{"SESSION-PROTOCOL_2025-12-18_fd7d1d61d.md", "SESSION-PROTOCOL_2025-12-22_3821367d2.md"} {
		spec, err := Parse(name, fixture(t, name))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		n := 0
		for _, p := range spec.Phases {
			for _, r := range p.Requirements {
				n++
				if !strings.HasPrefix(r.ID, p.ID+".") || seen[r.ID] {
					t.Errorf("%s: id %q (phase %s, seen %v)", name, r.ID, p.ID, seen[r.ID])
				}
				seen[r.ID] = true
			}
			for _, c := range p.Checklist {
				if !strings.HasPrefix(c.ID, p.ID+".") {
					t.Errorf("%s: checklist id %q", name, c.ID)
				}
			}
		}
		if n < 35 {
			t.Errorf("%s: %d requirements", name, n)
		}
		qa, ok := spec.Phase("SESSION_LOG_CREATION")
		if !ok || !qa.Checks[0].Fresh {
			t.Errorf("%s: the session log gate is not fresh", name)
		}
	}
}
