package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/pgtest"
	"github.com/sessiongate/sessiongate/internal/testshare"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/postgres"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
	"github.com/sessiongate/sessiongate/web"
)

// pgCluster is started by the first test that needs PostgreSQL.
var pgCluster pgtest.Lazy

func TestMain(m *testing.M) {
	testshare.Apply()
	// A temp folder of the package's own, removed at the end; a leak
	// fails CI (tmpleak).
	os.Exit(tmpleak.Run(func() int { return runTests(m) }))
}

func runTests(m *testing.M) int {
	code := m.Run()
	pgCluster.Close()
	return code
}

// dashStore is a store with the dashboard's reads, as both stores are.
type dashStore interface {
	session.Store
	ReadModel
}

// identityServer is a dashboard over db with sessions of two people on two
// hosts in two clones of one origin and one repository without an origin.
func identityServer(t *testing.T, db dashStore) *dashEnv {
	t.Helper()
	ctx := context.Background()
	env := &dashEnv{t: t, now: dashNow}
	env.engine = session.NewEngine(db, session.Config{CommandTimeout: 10 * time.Minute}, nil)
	env.engine.Now = func() time.Time { return env.now }
	env.engine.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	proto, err := os.ReadFile(filepath.Join("testdata", "dashboard-protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	if env.spec, err = env.engine.LoadSpec(ctx, "SESSION-PROTOCOL.md", proto); err != nil {
		t.Fatal(err)
	}
	env.srv = New(Options{
		Engine:    env.engine,
		ReadModel: db,
		LoadSpec:  func(context.Context) (*protocolspec.Spec, error) { return env.spec, nil },
		Version:   "test",
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	err = db.Update(ctx, func(w session.Writer) error {
		var repos []*session.Repository
		for i, root := range []string{"/home/ann/proj", "/home/bob/proj", "/home/ann/scratch"} {
			r, err := w.EnsureRepository(ctx, root, "proj")
			if err != nil {
				return err
			}
			if i < 2 {
				if err := w.SetRepositoryOrigin(ctx, r.ID, "github.com/o/proj"); err != nil {
					return err
				}
			}
			repos = append(repos, r)
		}
		for n, s := range []struct {
			repo              int
			name, email, host string
		}{
			{0, "Ann Lee", "ann@example.com", "ann-laptop"},
			{1, "Bob", "bob@example.com", "bob-desk"},
			{2, "Ann Lee", "ann@example.com", "ann-laptop"},
		} {
			c := dashNow.Add(-time.Duration(10-n) * time.Hour)
			if err := w.CreateSession(ctx, &session.Session{ID: dashSID(n + 1), RepoID: repos[s.repo].ID, Worktree: "/w", State: session.StateWorking,
				ProtocolSHA: env.spec.SHA256, Objective: "work", CreatedAt: c, LastActivity: c, ExpiresAt: c.Add(48 * time.Hour),
				UserName: s.name, UserEmail: s.email, Host: s.host}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// TestSessionsURLKeepsIdentity: the next-page and history links carry the
// identity filters.
func TestSessionsURLKeepsIdentity(t *testing.T) {
	got := sessionsURL("/sessions", web.SessionFilterForm{User: "ann@example.com", Host: "h1", Repo: "github.com/o/r"}, "c1")
	q, err := url.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	v := q.Query()
	if v.Get("user") != "ann@example.com" || v.Get("host") != "h1" || v.Get("repo") != "github.com/o/r" || v.Get("cursor") != "c1" {
		t.Errorf("sessionsURL = %s", got)
	}
}

// TestSessionIdentityFilters: user, host and repo filter the JSON API and
// the sessions page alike, on SQLite and on PostgreSQL; the form keeps
// what was typed; bad values are a 400 naming the parameter.
func TestSessionIdentityFilters(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			var db dashStore
			if backend == "sqlite" {
				d, err := store.Open(ctx, filepath.Join(t.TempDir(), "sg.db"))
				if err != nil {
					t.Fatal(err)
				}
				db = d
			} else {
				u, err := pgCluster.Get(t).NewDB(ctx)
				if err != nil {
					t.Fatal(err)
				}
				d, err := postgres.Open(ctx, u)
				if err != nil {
					t.Fatal(err)
				}
				db = d
			}
			t.Cleanup(func() { db.Close() })
			env := identityServer(t, db)
			for _, c := range []struct {
				query string
				want  []int
			}{
				{"user=ann%40example.com", []int{3, 1}},
				{"user=Bob", []int{2}},
				{"host=bob-desk", []int{2}},
				{"repo=github.com%2Fo%2Fproj", []int{2, 1}},
				{"repo=%2Fhome%2Fann%2Fscratch", []int{3}},
				{"repo=github.com%2Fo%2Fproj&user=ann%40example.com&host=ann-laptop", []int{1}},
				{"user=nobody%40example.com", nil},
			} {
				ids, out := apiSessionIDs(t, env, c.query)
				var want []string
				for _, n := range c.want {
					want = append(want, dashSID(n))
				}
				if !slices.Equal(ids, want) || out.Total != len(want) {
					t.Errorf("%s: ids %v (total %d), want %v", c.query, ids, out.Total, want)
				}
				page := env.get("/sessions?"+c.query, false).Body.String()
				for _, id := range want {
					if !strings.Contains(page, `href="/sessions/`+id+`"`) {
						t.Errorf("%s: page misses session %s", c.query, id)
					}
				}
				q, _ := url.ParseQuery(c.query)
				for _, k := range []string{"user", "host", "repo"} {
					if v := q.Get(k); v != "" && !strings.Contains(page, `name="`+k+`" value="`+v+`"`) {
						t.Errorf("%s: the form lost %s=%s", c.query, k, v)
					}
				}
			}
			// The violations list filters alike.
			if err := db.Update(ctx, func(w session.Writer) error {
				for n := 1; n <= 3; n++ {
					if err := w.AddViolation(ctx, &session.Violation{SessionID: dashSID(n), Severity: session.SeverityHigh,
						Code: fmt.Sprintf("CODE_%d", n), CreatedAt: dashNow.Add(-time.Duration(n) * time.Minute)}); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for query, want := range map[string][]string{
				"user=ann%40example.com":                  {"CODE_1", "CODE_3"},
				"host=bob-desk":                           {"CODE_2"},
				"repo=github.com%2Fo%2Fproj":              {"CODE_1", "CODE_2"},
				"repo=github.com%2Fo%2Fproj&user=Ann+Lee": {"CODE_1"},
			} {
				rec := env.get("/api/violations?"+query, false)
				var out struct {
					Violations []session.Violation `json:"violations"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
					t.Fatalf("/api/violations?%s: %v %s", query, err, rec.Body)
				}
				var codes []string
				for _, v := range out.Violations {
					codes = append(codes, v.Code)
				}
				slices.Sort(codes)
				if !slices.Equal(codes, want) {
					t.Errorf("/api/violations?%s = %v, want %v", query, codes, want)
				}
				page := env.get("/violations?"+query, false).Body.String()
				for _, c := range want {
					if !strings.Contains(page, c) {
						t.Errorf("/violations?%s misses %s", query, c)
					}
				}
			}
			detail := env.get("/sessions/"+dashSID(2), false).Body.String()
			if !strings.Contains(detail, "Bob &lt;bob@example.com&gt;") || !strings.Contains(detail, "bob-desk") {
				t.Errorf("the session page does not say who ran it where")
			}
			for _, bad := range []string{"user=" + strings.Repeat("x", 201), "host=a%01b", "repo=%ff"} {
				rec := env.get("/api/sessions?"+bad, false)
				name, _, _ := strings.Cut(bad, "=")
				if rec.Code != 400 || !strings.Contains(rec.Body.String(), name) {
					t.Errorf("%s: %d %s, want 400 naming %s", bad[:min(len(bad), 20)], rec.Code, rec.Body, name)
				}
			}
		})
	}
}
