package session

import (
	"cmp"
	"slices"
	"time"
)

// The team overview: across every repository and person a (team) database
// holds, which of them complete sessions without violations, week by week,
// who is worst, and the hook bypasses of the last week. The stores return
// grouped counts (TeamActivity); NewTeamOverview shapes them.

// TeamWeeks is how many weeks the overview looks back.
const TeamWeeks = 4

// TeamGroup says what a TeamCount counts by.
type TeamGroup string

const (
	TeamByRepo   TeamGroup = "repo"   // Repository.Key: origin URL, else the local root
	TeamByPerson TeamGroup = "person" // git user.email, else user.name, else ""
)

// BypassCodes are the violation codes the overview counts as bypasses:
// commits that skipped the hooks, and the recorded escape hatch.
var BypassCodes = []string{CodeBypass, CodeEscapeHatch}

// TeamCount is one group's sessions that ended in one week of the period.
type TeamCount struct {
	Group      TeamGroup
	Key        string
	Week       int // 0 = the period's first week
	Ended      int
	Compliant  int // COMPLETE without a violation
	Violations int // the violations of those sessions
}

// TeamBypass is one bypass with the repository and person it belongs to.
type TeamBypass struct {
	Violation
	Repo   string `json:"repo"`
	Person string `json:"person"`
}

// TeamBypassCount is one group's bypasses since the week's start.
type TeamBypassCount struct {
	Group TeamGroup
	Key   string
	N     int
}

// TeamActivity is what a store answers for the overview.
type TeamActivity struct {
	Counts       []TeamCount
	BypassCounts []TeamBypassCount
	Bypasses     []TeamBypass // newest first, at most the limit asked
}

// TeamRow is one repository or person over the period.
type TeamRow struct {
	Key        string           `json:"key"`
	Ended      int              `json:"ended"`
	Compliant  int              `json:"compliant"`
	Violations int              `json:"violations"`
	Bypasses   int              `json:"bypasses_last_week"`
	Weeks      []WeekCompliance `json:"weeks"` // oldest first, TeamWeeks of them
}

// Rate is the share of ended sessions that were compliant, 0..1 (0 when
// none ended).
func (r TeamRow) Rate() float64 {
	if r.Ended == 0 {
		return 0
	}
	return float64(r.Compliant) / float64(r.Ended)
}

// WeekCompliance is one week of a TeamRow.
type WeekCompliance struct {
	Start     time.Time `json:"start"`
	Ended     int       `json:"ended"`
	Compliant int       `json:"compliant"`
}

// TeamOverview is the cross-repository overview.
type TeamOverview struct {
	From        time.Time    `json:"from"` // the first week's start
	To          time.Time    `json:"to"`
	Repos       []TeamRow    `json:"repositories"` // worst first
	People      []TeamRow    `json:"people"`       // worst first
	Bypasses    []TeamBypass `json:"bypasses_last_week"`
	BypassTotal int          `json:"bypass_total_last_week"`
	// Commits are the commits made with no session in the period, per
	// git author: people's work (allowed) apart from agents' (BYPASS).
	// Nil when the store keeps no commit actors.
	Commits []TeamAuthor `json:"commits_without_session,omitempty"`
}

// TeamAuthor is one git author's commits without a session in the period.
type TeamAuthor struct {
	Author    string    `json:"author"` // git's "Name <email>"; "" when unrecorded
	Person    int       `json:"person_commits"`
	Adoptions int       `json:"adoptions"`
	Agent     int       `json:"agent_commits"` // made by an agent with no session
	Agents    []string  `json:"agents,omitempty"`
	Repos     []string  `json:"repositories"`
	Last      time.Time `json:"last"`
}

// TeamCommits groups commit actors by author, the most recent first.
func TeamCommits(rows []CommitActorRow) []TeamAuthor {
	by := map[string]*TeamAuthor{}
	var order []string
	for _, r := range rows {
		a := by[r.Author]
		if a == nil {
			a = &TeamAuthor{Author: r.Author}
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
	out := make([]TeamAuthor, 0, len(order))
	for _, k := range order {
		out = append(out, *by[k])
	}
	slices.SortStableFunc(out, func(x, y TeamAuthor) int { return y.Last.Compare(x.Last) })
	return out
}

// TeamPeriod returns the overview's period ending at now: TeamWeeks whole
// weeks back from the end of now's UTC day, and the last week's start.
func TeamPeriod(now time.Time) (from, to, lastWeek time.Time) {
	to = now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	from = to.Add(-TeamWeeks * 7 * 24 * time.Hour)
	return from, to, to.Add(-7 * 24 * time.Hour)
}

// NewTeamOverview shapes a store's answer. Rows with bypasses but no ended
// session in the period are kept: a bypass is what a lead looks for.
// Worst first: the lowest compliance rate, then the most bypasses, then
// the most violations, then the key.
func NewTeamOverview(a *TeamActivity, from, to time.Time) *TeamOverview {
	o := &TeamOverview{From: from, To: to, Bypasses: a.Bypasses}
	rows := map[TeamGroup]map[string]*TeamRow{TeamByRepo: {}, TeamByPerson: {}}
	row := func(g TeamGroup, key string) *TeamRow {
		m := rows[g]
		if m == nil {
			return nil
		}
		r := m[key]
		if r == nil {
			r = &TeamRow{Key: key, Weeks: make([]WeekCompliance, TeamWeeks)}
			for i := range r.Weeks {
				r.Weeks[i].Start = from.Add(time.Duration(i) * 7 * 24 * time.Hour)
			}
			m[key] = r
		}
		return r
	}
	for _, c := range a.Counts {
		r := row(c.Group, c.Key)
		if r == nil {
			continue
		}
		r.Ended += c.Ended
		r.Compliant += c.Compliant
		r.Violations += c.Violations
		if c.Week >= 0 && c.Week < TeamWeeks {
			r.Weeks[c.Week].Ended += c.Ended
			r.Weeks[c.Week].Compliant += c.Compliant
		}
	}
	for _, b := range a.BypassCounts {
		if r := row(b.Group, b.Key); r != nil {
			r.Bypasses += b.N
			if b.Group == TeamByRepo {
				o.BypassTotal += b.N
			}
		}
	}
	worstFirst := func(a, b TeamRow) int {
		if a.Ended > 0 && b.Ended > 0 {
			if c := cmp.Compare(a.Rate(), b.Rate()); c != 0 {
				return c
			}
		}
		return cmp.Or(cmp.Compare(b.Bypasses, a.Bypasses), cmp.Compare(b.Violations, a.Violations), cmp.Compare(a.Key, b.Key))
	}
	for g, dst := range map[TeamGroup]*[]TeamRow{TeamByRepo: &o.Repos, TeamByPerson: &o.People} {
		for _, r := range rows[g] {
			*dst = append(*dst, *r)
		}
		slices.SortFunc(*dst, worstFirst)
	}
	return o
}

// Weeks returns the start of each of the period's weeks, oldest first.
func (o *TeamOverview) Weeks() []time.Time {
	out := make([]time.Time, TeamWeeks)
	for i := range out {
		out[i] = o.From.Add(time.Duration(i) * 7 * 24 * time.Hour)
	}
	return out
}
