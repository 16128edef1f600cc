package main

import (
	"encoding/json"
	"testing"
)

func (w *ciWorld) sessionID(t *testing.T) string {
	t.Helper()
	var st struct {
		Session struct {
			ID string `json:"id"`
		} `json:"session"`
	}
	if err := json.Unmarshal([]byte(w.sg(t, w.dev, "session", "status", "--json")), &st); err != nil || st.Session.ID == "" {
		t.Fatalf("session status: %v", err)
	}
	return st.Session.ID
}

// TestH352ReplayOfHooksOffStartFails: the lazy twin of
// TestH352MidSessionPullRebaseThenCommit. A hooks-off commit made before
// the session (the session starts on it) is replayed mid-session by a
// rebase, plain or with its copy given this session's Session-Id trailer
// (an exec or edit stop amending with --no-verify). The session ends, but
// verify fails the copy: no FOREIGN_AMEND is needed for that.
func TestH352ReplayOfHooksOffStartFails(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"plain", "execamend", "editamend"} {
		v := v
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			w := newCIWorld(t)
			w.git(t, w.dev, "checkout", "-q", "main")
			w.qaCmd = "test ! -f broken.txt"
			base := w.git(t, w.dev, "rev-parse", "HEAD")
			w.sessionWith(t, func() {
				w.writeFile(t, "other.txt", "main's\n")
				w.git(t, w.dev, "add", "-A")
				w.git(t, w.dev, "commit", "-q", "-m", "main adds other.txt")
			})
			w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main")
			main2 := w.git(t, w.dev, "rev-parse", "HEAD")
			w.git(t, w.dev, "checkout", "-q", "-b", "topic", base)
			w.noHooks(t, "lazy.txt", "unchecked work before the session")
			w.sessionWith(t, func() {
				id := w.sessionID(t)
				switch v {
				case "plain":
					w.git(t, w.dev, "rebase", "-q", main2)
				case "execamend":
					w.git(t, w.dev, "rebase", "-q", "--exec", "git commit -q --amend --no-edit --no-verify --trailer 'Session-Id: "+id+"'", main2)
				case "editamend":
					w.git(t, w.dev, "-c", "sequence.editor=sed -i s/^pick/edit/", "rebase", "-q", "-i", main2)
					w.git(t, w.dev, "commit", "-q", "--amend", "--no-edit", "--no-verify", "--trailer", "Session-Id: "+id)
					w.git(t, w.dev, "rebase", "--continue")
				}
				w.writeFile(t, "c.txt", "c\n")
				w.git(t, w.dev, "add", "-A")
				w.git(t, w.dev, "commit", "-q", "-m", "add c.txt")
			})
			tip := w.git(t, w.dev, "rev-parse", "HEAD")
			w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "HEAD:refs/heads/topic")
			w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", "refs/sessiongate/records")
			w.git(t, w.remote, "update-ref", "refs/heads/main", tip)
			ci := w.gitlabBuild(t, "h352"+v, tip, 0, "+refs/heads/main:refs/remotes/origin/main",
				"+refs/sessiongate/records:refs/sessiongate/records")
			env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
				"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+main2, "CI_COMMIT_SHA="+tip)
			verifyWants(t, ci, env, nil, 1, []string{
				`(?m)^FAIL .* unchecked work before the session\n`,
				`(?m)^FAIL .* add c\.txt\n(\s+.*\n)*?\s+.*start_commit \S+ is not a commit of this repository`,
			})
		})
	}
}
