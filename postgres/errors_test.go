package postgres

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sessiongate/sessiongate/internal/pgtest"
	"github.com/sessiongate/sessiongate/session"
)

// TestOpenErrorsInWords: what the server said decides the wording. The
// password is blamed only for 28P01; a login refused for another reason
// (28000) says the password was not it; a missing database says so.
func TestOpenErrorsInWords(t *testing.T) {
	good := newURL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	// A role with the right password that may not log in: the server
	// answers 28000 after the password check passed.
	if _, err := conn.Exec(ctx, `DO $$ BEGIN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sg_nologin') THEN
			CREATE ROLE sg_nologin NOLOGIN PASSWORD 'nologin-pw-77';
		END IF; END $$`); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	withUser := func(user, pw, db string) string {
		u, err := url.Parse(good)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword(user, pw)
		if db != "" {
			u.Path = "/" + db
		}
		return u.String()
	}
	for _, tt := range []struct {
		name     string
		url      string
		kind     ServerErrorKind
		want     []string
		wantNot  []string
		password string
	}{
		{"wrong password", withUser(pgtest.User, "wrong-pw-1234", ""), ServerBadPassword,
			[]string{"refused the password", "28P01", "check the password"}, []string{"FATAL"}, "wrong-pw-1234"},
		{"login not permitted", withUser("sg_nologin", "nologin-pw-77", ""), ServerRefusedLogin,
			[]string{"refused the login", "28000", "not permitted to log in", "the password was not the reason"}, []string{"check the password", "FATAL"}, "nologin-pw-77"},
		{"no such database", withUser(pgtest.User, pgtest.Password, "no_such_db_here"), ServerNoDatabase,
			[]string{"has no such database", "no_such_db_here"}, []string{"password", "FATAL"}, pgtest.Password},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(ctx, tt.url)
			if err == nil {
				t.Fatal("Open succeeded")
			}
			var se *ServerError
			if !errors.As(err, &se) || se.Kind != tt.kind {
				t.Fatalf("error %q: want a ServerError of kind %d, got %+v", err, tt.kind, se)
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			for _, w := range append(tt.wantNot, tt.password) {
				if strings.Contains(msg, w) {
					t.Errorf("error %q contains %q", msg, w)
				}
			}
		})
	}
}

// TestServerRestartInWords: a server that shuts down under an open store
// (pg_ctl stop -m fast sends 57P01 admin_shutdown to every client) reads
// "shut down or restarted ... retry", never a raw FATAL; while it is down
// a read says no server answers; once it is back the store works again
// and nothing committed was lost.
func TestServerRestartInWords(t *testing.T) {
	u := newURL(t)
	db := openURL(t, u)
	ctx := context.Background()
	var s *session.Session
	if err := db.Update(ctx, func(w session.Writer) error {
		r, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		s = &session.Session{RepoID: r.ID, Worktree: "/r", State: session.StateWorking, Objective: "before the restart"}
		return w.CreateSession(ctx, s)
	}); err != nil {
		t.Fatal(err)
	}
	restarted := false
	t.Cleanup(func() {
		if !restarted {
			cluster.Restart()
		}
	})
	err := db.Update(ctx, func(w session.Writer) error {
		if err := cluster.Stop("fast"); err != nil {
			t.Fatal(err)
		}
		return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "during"})
	})
	check := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s succeeded with the server stopped", what)
		}
		var se *ServerError
		if !errors.As(err, &se) || se.Kind != ServerRestarting {
			t.Errorf("%s: error %q is not a ServerRestarting", what, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, "retry") || !strings.Contains(msg, cluster.Socket) {
			t.Errorf("%s: error %q does not name the server (%s) and say retry", what, msg, cluster.Socket)
		}
		for _, bad := range []string{"FATAL", "password", pgtest.Password} {
			if strings.Contains(msg, bad) {
				t.Errorf("%s: error %q contains %q", what, msg, bad)
			}
		}
	}
	check("a write when the server shut down", err)
	if err != nil && !strings.Contains(err.Error(), "shut down or restarted (SQLSTATE 57P01 admin_shutdown)") && !strings.Contains(err.Error(), "closed the connection") {
		t.Errorf("write error %q: want the shutdown named", err)
	}
	_, err = db.GetSession(ctx, s.ID)
	check("a read while the server is down", err)
	_, err = Open(ctx, u)
	check("an open while the server is down", err)

	if err := cluster.Restart(); err != nil {
		t.Fatal(err)
	}
	restarted = true
	var got *session.Session
	for i := 0; ; i++ {
		got, err = db.GetSession(ctx, s.ID)
		if err == nil || i == 50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("after the restart: %v", err)
	}
	if got.Objective != "before the restart" {
		t.Errorf("objective %q after the restart", got.Objective)
	}
}

// TestExplainLeavesOtherErrors: an error that is not about the server's
// availability or the login is returned as it was.
func TestExplainLeavesOtherErrors(t *testing.T) {
	for _, err := range []error{pgx.ErrNoRows, context.DeadlineExceeded, errors.New("some constraint")} {
		if got := explain(err, "h"); got != err {
			t.Errorf("explain(%v) = %v", err, got)
		}
	}
	if explain(nil, "h") != nil {
		t.Error("explain(nil) is not nil")
	}
}
