package teamoverview

import (
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/snapshot"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestPeriod: the period ends at the end of now's UTC day and holds Weeks
// whole weeks; a zone east of UTC does not move it.
func TestPeriod(t *testing.T) {
	now := time.Date(2026, 11, 30, 23, 30, 0, 0, time.FixedZone("x", 5*3600)) // 18:30 UTC
	from, to, last := Period(now)
	if want := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC); !to.Equal(want) {
		t.Errorf("to = %v, want %v", to, want)
	}
	if want := to.Add(-28 * 24 * time.Hour); !from.Equal(want) {
		t.Errorf("from = %v, want %v", from, want)
	}
	if want := to.Add(-7 * 24 * time.Hour); !last.Equal(want) {
		t.Errorf("lastWeek = %v, want %v", last, want)
	}
	ws := WeekStarts(from)
	if len(ws) != Weeks || !ws[0].Equal(from) || !ws[Weeks-1].Equal(last) {
		t.Errorf("WeekStarts = %v, want %d weeks from %v to %v", ws, Weeks, from, last)
	}
}

// TestRows: counts add up per key and week, worst first (rate, then
// bypasses, violations, key); a key with bypasses and no ended session is
// kept; an unknown group and a week outside the period count in the total
// only where they may.
func TestRows(t *testing.T) {
	from := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		counts    []Count
		bypasses  []BypassCount
		repos     []string // keys, worst first
		people    []string
		total     int
		checkRepo func(t *testing.T, rs []Row)
	}{
		{name: "empty"},
		{
			name: "rate first",
			counts: []Count{
				{Group: ByRepo, Key: "good", Week: 0, Ended: 4, Compliant: 4},
				{Group: ByRepo, Key: "bad", Week: 1, Ended: 4, Compliant: 1, Violations: 3},
				{Group: ByRepo, Key: "half", Week: 3, Ended: 2, Compliant: 1},
			},
			repos: []string{"bad", "half", "good"},
		},
		{
			name: "same rate: bypasses, then violations, then key",
			counts: []Count{
				{Group: ByPerson, Key: "b", Ended: 1, Compliant: 1},
				{Group: ByPerson, Key: "a", Ended: 1, Compliant: 1},
				{Group: ByPerson, Key: "v", Ended: 2, Compliant: 2, Violations: 1},
				{Group: ByPerson, Key: "x", Ended: 1, Compliant: 1},
			},
			bypasses: []BypassCount{{Group: ByPerson, Key: "x", N: 2}},
			people:   []string{"x", "v", "a", "b"},
		},
		{
			name:     "bypass without a session is kept, repos' bypasses total",
			counts:   []Count{{Group: ByRepo, Key: "r", Ended: 1, Compliant: 1}},
			bypasses: []BypassCount{{Group: ByRepo, Key: "quiet", N: 3}, {Group: ByRepo, Key: "r", N: 1}, {Group: ByPerson, Key: "p", N: 5}},
			repos:    []string{"quiet", "r"},
			people:   []string{"p"},
			total:    4,
		},
		{
			name: "weeks add up, outside the period only the totals",
			counts: []Count{
				{Group: ByRepo, Key: "r", Week: 2, Ended: 2, Compliant: 1},
				{Group: ByRepo, Key: "r", Week: 2, Ended: 1, Compliant: 1},
				{Group: ByRepo, Key: "r", Week: Weeks, Ended: 5, Compliant: 0},
				{Group: "team", Key: "ignored", Ended: 9},
			},
			repos: []string{"r"},
			checkRepo: func(t *testing.T, rs []Row) {
				r := rs[0]
				if r.Ended != 8 || r.Compliant != 2 {
					t.Errorf("totals = %d/%d, want 8 ended, 2 compliant", r.Ended, r.Compliant)
				}
				want := []WeekCompliance{{Start: from}, {Start: from.Add(week)}, {Start: from.Add(2 * week), Ended: 3, Compliant: 2}, {Start: from.Add(3 * week)}}
				if !reflect.DeepEqual(r.Weeks, want) {
					t.Errorf("weeks = %+v, want %+v", r.Weeks, want)
				}
			},
		},
	}
	keys := func(rs []Row) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Key)
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repos, people, total := Rows(tt.counts, tt.bypasses, from)
			if got := keys(repos); !reflect.DeepEqual(got, tt.repos) {
				t.Errorf("repos = %q, want %q", got, tt.repos)
			}
			if got := keys(people); !reflect.DeepEqual(got, tt.people) {
				t.Errorf("people = %q, want %q", got, tt.people)
			}
			if total != tt.total {
				t.Errorf("bypass total = %d, want %d", total, tt.total)
			}
			if tt.checkRepo != nil {
				tt.checkRepo(t, repos)
			}
		})
	}
}

// TestCommits: one row an author, agents apart from people and
// adoptions, each repository and agent once, the latest author first.
func TestCommits(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c := func(author, actor, agent, kind, repo string, h int) Commit {
		return Commit{CommitActor: snapshot.CommitActor{Author: author, Actor: actor, Agent: agent, Kind: kind}, Repo: repo, CreatedAt: at.Add(time.Duration(h) * time.Hour)}
	}
	got := Commits([]Commit{
		c("Ann <a@x>", "person", "", "commit", "r1", 0),
		c("Bot <b@x>", "agent", "claude", "commit", "r1", 1),
		c("Ann <a@x>", "person", "", "adoption", "r2", 2),
		c("Bot <b@x>", "agent", "claude", "commit", "r2", -1),
		c("Bot <b@x>", "agent", "codex", "commit", "r1", -2),
		c("", "person", "", "commit", "r1", -3),
	})
	want := []Author{
		{Author: "Ann <a@x>", Person: 1, Adoptions: 1, Repos: []string{"r1", "r2"}, Last: at.Add(2 * time.Hour)},
		{Author: "Bot <b@x>", Agent: 3, Agents: []string{"claude", "codex"}, Repos: []string{"r1", "r2"}, Last: at.Add(time.Hour)},
		{Author: "", Person: 1, Repos: []string{"r1"}, Last: at.Add(-3 * time.Hour)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Commits =\n%+v\nwant\n%+v", got, want)
	}
	if got := Commits(nil); got == nil || len(got) != 0 {
		t.Errorf("Commits(nil) = %#v, want an empty slice", got)
	}
}
