package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/web"
)

// teamBypassLimit bounds the bypasses /team lists (all are counted).
const teamBypassLimit = 100

var errNoTeamReads = errors.New("this store has no team reads")

// teamOverview reads the cross-repository overview for the four weeks
// ending today.
func (d *dashboard) teamOverview(ctx context.Context) (*session.TeamOverview, error) {
	if d.agg == nil {
		return nil, errNoTeamReads
	}
	from, to, lastWeek := session.TeamPeriod(d.now())
	a, err := d.agg.TeamActivity(ctx, from, to, lastWeek, teamBypassLimit)
	if err != nil {
		return nil, err
	}
	o := session.NewTeamOverview(a, from, to)
	// Commits without a session (people's, and agents' bypasses) by author,
	// where the store keeps them (SQLite).
	if ar, ok := d.agg.(session.ActorReader); ok {
		rows, err := ar.CommitActors(ctx, from, teamCommitLimit)
		if err != nil {
			return nil, err
		}
		o.Commits = session.TeamCommits(rows)
	}
	return o, nil
}

// teamCommitLimit bounds the commits without a session /team reads.
const teamCommitLimit = 5000

// team is /team: compliance per repository and per person over four weeks,
// worst first, and last week's bypasses; each row links to its sessions.
// Each table shows its first web.TeamShown rows; ?all=repos (people,
// bypasses) shows that one whole.
func (d *dashboard) team(c echo.Context) error {
	var t web.Team
	if all := c.QueryParam("all"); all != "" {
		if !slices.Contains(web.TeamTables, all) {
			return d.failErr(c, badf("all=%q: want one of %s", all, strings.Join(web.TeamTables, ", ")))
		}
		t.All = all
	}
	o, err := d.teamOverview(c.Request().Context())
	switch {
	case errors.Is(err, errNoTeamReads):
		t.Error = "This server's store keeps no team aggregates."
	case err != nil:
		return d.failErr(c, err)
	default:
		t.O = o
	}
	if partial(c) {
		return d.html(c, http.StatusOK, web.TeamContent(t))
	}
	return d.html(c, http.StatusOK, web.TeamPage(d.page("Team", "team"), t))
}

// apiTeam is /api/team: the same overview as JSON.
func (d *dashboard) apiTeam(c echo.Context) error {
	o, err := d.teamOverview(c.Request().Context())
	if err != nil {
		return d.apiFail(c, err)
	}
	o.Repos, o.People, o.Bypasses = nonNil(o.Repos), nonNil(o.People), nonNil(o.Bypasses)
	return c.JSON(http.StatusOK, o)
}
