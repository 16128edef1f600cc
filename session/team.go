package session

import (
	"time"

	"github.com/sessiongate/sessiongate/teamoverview"
)

// The team overview: across every repository and person a (team) database
// holds, which of them complete sessions without violations, week by week,
// who is worst, and the hook bypasses of the last week. The stores return
// grouped counts (TeamActivity); NewTeamOverview shapes them with
// teamoverview/, whose types these names alias. A bypass is a Violation,
// the domain's, so TeamBypass, TeamActivity and TeamOverview stay here.

// TeamWeeks is how many weeks the overview looks back.
const TeamWeeks = teamoverview.Weeks

// TeamGroup says what a TeamCount counts by.
type TeamGroup = teamoverview.Group

const (
	TeamByRepo   = teamoverview.ByRepo
	TeamByPerson = teamoverview.ByPerson
)

// BypassCodes are the violation codes the overview counts as bypasses:
// commits that skipped the hooks, and the recorded escape hatch.
var BypassCodes = []string{CodeBypass, CodeEscapeHatch}

type (
	TeamCount       = teamoverview.Count
	TeamBypassCount = teamoverview.BypassCount
	TeamRow         = teamoverview.Row
	WeekCompliance  = teamoverview.WeekCompliance
	TeamAuthor      = teamoverview.Author
)

// TeamBypass is one bypass with the repository and person it belongs to.
type TeamBypass struct {
	Violation
	Repo   string `json:"repo"`
	Person string `json:"person"`
}

// TeamActivity is what a store answers for the overview.
type TeamActivity struct {
	Counts       []TeamCount
	BypassCounts []TeamBypassCount
	Bypasses     []TeamBypass // newest first, at most the limit asked
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

// TeamCommits groups commit actors by author, the most recent first
// (teamoverview.Commits).
func TeamCommits(rows []CommitActorRow) []TeamAuthor {
	cs := make([]teamoverview.Commit, len(rows))
	for i, r := range rows {
		cs[i] = teamoverview.Commit{CommitActor: r.CommitActor, Repo: r.Repo, CreatedAt: r.CreatedAt}
	}
	return teamoverview.Commits(cs)
}

// TeamPeriod returns the overview's period ending at now (teamoverview.Period).
func TeamPeriod(now time.Time) (from, to, lastWeek time.Time) { return teamoverview.Period(now) }

// NewTeamOverview shapes a store's answer: rows by repository and person,
// worst first (teamoverview.Rows).
func NewTeamOverview(a *TeamActivity, from, to time.Time) *TeamOverview {
	o := &TeamOverview{From: from, To: to, Bypasses: a.Bypasses}
	o.Repos, o.People, o.BypassTotal = teamoverview.Rows(a.Counts, a.BypassCounts, from)
	return o
}

// Weeks returns the start of each of the period's weeks, oldest first.
func (o *TeamOverview) Weeks() []time.Time { return teamoverview.WeekStarts(o.From) }
