package agenthook

import (
	"context"

	"github.com/sessiongate/sessiongate/session"
)

// latePostSession is the session a Claude Code post-tool event belongs to
// when no session is active: the one its conversation was bound to, which
// ended inside this very call (`... && sessiongate session end`). That
// call's post only comes once the gate returned; unread, a second hook's
// rewrite of the end call (`sed -i ... && sessiongate session end` for
// what was judged as `sessiongate session end`) went unseen. Only the
// input is compared (inputRewritten): it flags nothing unless the id was
// judged in that session with another input. "" when there is none.
func latePostSession(ev *Event, bd *session.AgentBound) string {
	if bd == nil || bd.Session != nil || !postCompared(ev) {
		return ""
	}
	return bd.Ended
}

// latePost compares a post that came after its session ended.
func (r *Runner) latePost(ctx context.Context, eng *session.Engine, ev *Event, sid string) (*Answer, error) {
	a := &Answer{}
	if ev.SubAgent != "" {
		// A background sub-agent's call the session's end gate left
		// pending (round 28): reported, so its notification, a stop or
		// SessionEnd does not name it missing.
		if err := eng.RecordToolResult(ctx, sid, ev.Agent, ev.ToolID, false); err != nil {
			return a, err
		}
	}
	why, err := r.inputRewritten(ctx, eng, ev, sid)
	if why != "" {
		a.Notice = "sessiongate: HIGH " + session.CodeToolInputRewritten + " violation recorded: " + why
	}
	return a, err
}
