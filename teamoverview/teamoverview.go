// Package teamoverview shapes the team overview (the dashboard's /team):
// across every repository and person a team database holds, which of them
// complete sessions without violations, week by week, who is worst, and
// who commits without a session. The stores answer grouped counts; this
// package turns them into rows, worst first. It needs no session: the
// engine's types (a bypass is a session.Violation) stay in session/, which
// keeps its Team* names as aliases of these.
package teamoverview

import (
	"cmp"
	"slices"
	"time"

	"github.com/sessiongate/sessiongate/snapshot"
)

// Weeks is how many weeks the overview looks back.
const Weeks = 4

const week = 7 * 24 * time.Hour

// Group says what a Count counts by.
type Group string

const (
	ByRepo   Group = "repo"   // Repository.Key: origin URL, else the local root
	ByPerson Group = "person" // git user.email, else user.name, else ""
)

// Count is one group's sessions that ended in one week of the period.
type Count struct {
	Group      Group
	Key        string
	Week       int // 0 = the period's first week
	Ended      int
	Compliant  int // COMPLETE without a violation
	Violations int // the violations of those sessions
}

// BypassCount is one group's bypasses since the last week's start.
type BypassCount struct {
	Group Group
	Key   string
	N     int
}

// Row is one repository or person over the period.
type Row struct {
	Key        string           `json:"key"`
	Ended      int              `json:"ended"`
	Compliant  int              `json:"compliant"`
	Violations int              `json:"violations"`
	Bypasses   int              `json:"bypasses_last_week"`
	Weeks      []WeekCompliance `json:"weeks"` // oldest first, Weeks of them
}

// Rate is the share of ended sessions that were compliant, 0..1 (0 when
// none ended).
func (r Row) Rate() float64 {
	if r.Ended == 0 {
		return 0
	}
	return float64(r.Compliant) / float64(r.Ended)
}

// WeekCompliance is one week of a Row.
type WeekCompliance struct {
	Start     time.Time `json:"start"`
	Ended     int       `json:"ended"`
	Compliant int       `json:"compliant"`
}

// Period returns the overview's period ending at now: Weeks whole weeks
// back from the end of now's UTC day, and the last week's start.
func Period(now time.Time) (from, to, lastWeek time.Time) {
	to = now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	from = to.Add(-Weeks * week)
	return from, to, to.Add(-week)
}

// WeekStarts returns the start of each of the period's weeks from from,
// oldest first.
func WeekStarts(from time.Time) []time.Time {
	out := make([]time.Time, Weeks)
	for i := range out {
		out[i] = from.Add(time.Duration(i) * week)
	}
	return out
}

// Rows adds up a store's counts by repository and by person, worst first:
// the lowest compliance rate, then the most bypasses, then the most
// violations, then the key. Rows with bypasses but no ended session in the
// period are kept: a bypass is what a lead looks for. bypassTotal is the
// repositories' bypasses of the last week.
func Rows(counts []Count, bypasses []BypassCount, from time.Time) (repos, people []Row, bypassTotal int) {
	rows := map[Group]map[string]*Row{ByRepo: {}, ByPerson: {}}
	row := func(g Group, key string) *Row {
		m := rows[g]
		if m == nil {
			return nil
		}
		r := m[key]
		if r == nil {
			r = &Row{Key: key, Weeks: make([]WeekCompliance, Weeks)}
			for i, s := range WeekStarts(from) {
				r.Weeks[i].Start = s
			}
			m[key] = r
		}
		return r
	}
	for _, c := range counts {
		r := row(c.Group, c.Key)
		if r == nil {
			continue
		}
		r.Ended += c.Ended
		r.Compliant += c.Compliant
		r.Violations += c.Violations
		if c.Week >= 0 && c.Week < Weeks {
			r.Weeks[c.Week].Ended += c.Ended
			r.Weeks[c.Week].Compliant += c.Compliant
		}
	}
	for _, b := range bypasses {
		if r := row(b.Group, b.Key); r != nil {
			r.Bypasses += b.N
			if b.Group == ByRepo {
				bypassTotal += b.N
			}
		}
	}
	worstFirst := func(a, b Row) int {
		if a.Ended > 0 && b.Ended > 0 {
			if c := cmp.Compare(a.Rate(), b.Rate()); c != 0 {
				return c
			}
		}
		return cmp.Or(cmp.Compare(b.Bypasses, a.Bypasses), cmp.Compare(b.Violations, a.Violations), cmp.Compare(a.Key, b.Key))
	}
	for g, dst := range map[Group]*[]Row{ByRepo: &repos, ByPerson: &people} {
		for _, r := range rows[g] {
			*dst = append(*dst, *r)
		}
		slices.SortFunc(*dst, worstFirst)
	}
	return repos, people, bypassTotal
}

// Commit is one recorded commit actor with the repository it was made in.
type Commit struct {
	snapshot.CommitActor
	Repo      string    // the repository's key (origin, else root)
	CreatedAt time.Time // when it was recorded
}

// Author is one git author's commits without a session in the period.
type Author struct {
	Author    string    `json:"author"` // git's "Name <email>"; "" when unrecorded
	Person    int       `json:"person_commits"`
	Adoptions int       `json:"adoptions"`
	Agent     int       `json:"agent_commits"` // made by an agent with no session
	Agents    []string  `json:"agents,omitempty"`
	Repos     []string  `json:"repositories"`
	Last      time.Time `json:"last"`
}

// Commits groups commit actors by author, the most recent first: people's
// work (allowed) apart from agents' (BYPASS).
func Commits(rows []Commit) []Author {
	by := map[string]*Author{}
	var order []string
	for _, r := range rows {
		a := by[r.Author]
		if a == nil {
			a = &Author{Author: r.Author}
			by[r.Author] = a
			order = append(order, r.Author)
		}
		switch {
		case r.Actor == "agent":
			a.Agent++
			if r.Agent != "" && !slices.Contains(a.Agents, r.Agent) {
				a.Agents = append(a.Agents, r.Agent)
			}
		case r.Kind == "adoption":
			a.Adoptions++
		default:
			a.Person++
		}
		if !slices.Contains(a.Repos, r.Repo) {
			a.Repos = append(a.Repos, r.Repo)
		}
		if r.CreatedAt.After(a.Last) {
			a.Last = r.CreatedAt
		}
	}
	out := make([]Author, 0, len(order))
	for _, k := range order {
		out = append(out, *by[k])
	}
	slices.SortStableFunc(out, func(x, y Author) int { return y.Last.Compare(x.Last) })
	return out
}
