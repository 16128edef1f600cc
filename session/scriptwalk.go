package session

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/scriptrun"
	"github.com/sessiongate/sessiongate/scriptwalk"
)

// The walk of the script files a shell line runs is scriptwalk's; the
// session binds it here: each line a script runs is judged by
// agentPreTool with the bound session and the call's policy (nested:
// DenyBeforeStart off, since a script's own work files are the work's),
// and the targets a script may not name come from the engine's config and
// store.

// ScriptRead is a script file an allowed shell call runs, as read at the
// hook (scriptwalk.Read).
type ScriptRead = scriptwalk.Read

// scriptVerdict judges the scripts the lines of a shell call run. It
// returns an allowing verdict listing the scripts read when none is denied.
func (e *Engine) scriptVerdict(ctx context.Context, bd *AgentBound, root string, call ToolCall, pol AgentPolicy, lines []string, depth int) (*AgentVerdict, error) {
	var s *Session
	if bd != nil {
		s = bd.Session
	}
	w := scriptwalk.Walk{Root: root, Dir: call.Dir, Command: call.Command,
		Within:  scriptrun.Within{String: pol.inString, List: pol.inList, Shell: pol.inShell},
		Active:  s != nil && s.Active(),
		Targets: e.scriptTargets(root, call), Depth: depth,
		Judge: scriptJudge{e: e, bd: bd, root: root, call: call, pol: pol}}
	sv, err := w.Lines(ctx, lines)
	if err != nil {
		return nil, err
	}
	v := &AgentVerdict{Deny: sv.Deny, Reason: sv.Reason, Next: sv.Next, Scripts: sv.Scripts}
	if v.Deny {
		v.Gate = "scripts"
	}
	return v, nil
}

// scriptJudge judges a line a script runs as the agent's own line, with
// the bound session, one level deeper.
type scriptJudge struct {
	e    *Engine
	bd   *AgentBound
	root string
	call ToolCall
	pol  AgentPolicy
}

func (j scriptJudge) JudgeLine(ctx context.Context, l scriptwalk.Line) (scriptwalk.Verdict, error) {
	sub := j.pol
	sub.DenyBeforeStart = false // a script's own work files are the work's
	sub.inString, sub.inShell, sub.inList = l.Within.String, l.Within.Shell, l.Within.List
	v, err := j.e.agentPreTool(ctx, j.bd, j.root, ToolCall{Kind: ToolShell, Name: j.call.Name, Command: l.Text, Dir: l.Dir, Transcript: j.call.Transcript}, sub, l.Depth)
	if err != nil {
		return scriptwalk.Verdict{}, err
	}
	if v == nil {
		return scriptwalk.Verdict{}, errors.New("no verdict") // the walk denies it
	}
	return scriptwalk.Verdict{Deny: v.Deny, Reason: v.Reason, Next: v.Next, Scripts: v.Scripts}, nil
}

// scriptTargets are what a script may not name: the defaults, the
// protected files, the records refs, the session database and key
// wherever they are kept, and the agent's transcript.
func (e *Engine) scriptTargets(root string, call ToolCall) []scriptrun.Target {
	ts := append([]scriptrun.Target{}, scriptrun.DefaultTargets...)
	for _, p := range ProtectedPaths(e.Config, "") {
		if i := strings.IndexAny(p, "*?[{"); i >= 0 {
			p = strings.TrimSuffix(p[:i], "/")
		}
		if len(p) >= 5 && strings.ContainsAny(p, "./") {
			ts = append(ts, scriptrun.Target{Needle: p, What: "the protected file " + p})
		}
	}
	for _, r := range e.recordsRefs() {
		if r = strings.TrimSuffix(r, "/"); len(r) >= 5 {
			ts = append(ts, scriptrun.Target{Needle: r, What: "the records ref"})
		}
	}
	if p, ok := e.Store.(interface{ Path() string }); ok && p.Path() != "" && !strings.HasPrefix(p.Path(), ":memory:") {
		dbDir := filepath.Dir(p.Path())
		ts = append(ts, scriptrun.Target{Needle: filepath.ToSlash(dbDir), What: "sessiongate's database folder"},
			scriptrun.Target{Needle: filepath.Base(p.Path()), What: "the session database"})
		if rel, err := filepath.Rel(root, dbDir); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			ts = append(ts, scriptrun.Target{Needle: filepath.ToSlash(rel), What: "sessiongate's database folder"})
		}
	}
	if call.Transcript != "" {
		ts = append(ts, scriptrun.Target{Needle: filepath.ToSlash(call.Transcript), What: "the agent's transcript"},
			scriptrun.Target{Needle: path.Base(filepath.ToSlash(call.Transcript)), What: "the agent's transcript"})
	}
	return ts
}

// ScriptEventPrefix starts the event a script run records: the token
// carries the sha256 of the script's bytes (records on the ref keep
// tokens, not details), the detail its path.
const ScriptEventPrefix = "script:ran:"

// scriptSeenWindow is how many of a session's last events RecordScripts
// looks through for a script already on record.
const scriptSeenWindow = 4096

// RecordScripts records each script an allowed shell call runs, once per
// content per session. A script that a script writes and runs is not read
// at the hook; these events let a reviewer tell the scripts that ran from
// the ones committed. verify does not read them (docs/security.md says
// why): the record keeps the script's hash, not its path.
func (e *Engine) RecordScripts(ctx context.Context, sessionID string, scripts []ScriptRead) error {
	for _, sc := range scripts {
		tok := ScriptEventPrefix + sc.SHA256
		// LastEvents filters the last n events by token: n = 1 asked only
		// whether the session's very last event was this script's, so any
		// event in between (a witnessed Bash call, witness.go) recorded it
		// again. The window keeps the hook's read bounded.
		seen, err := e.Store.LastEvents(ctx, sessionID, scriptSeenWindow, tok)
		if err != nil {
			return fmt.Errorf("read the session's script events: %w", err)
		}
		if len(seen) > 0 {
			continue
		}
		where := "repo"
		if !sc.InRepo {
			where = "temp"
		}
		detail := fmt.Sprintf(`{"path":%q,"where":%q}`, sc.Path, where)
		if err := e.Store.Update(ctx, func(w Writer) error {
			return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: tok, Detail: detail})
		}); err != nil {
			return fmt.Errorf("record the script %s: %w", sc.Path, err)
		}
	}
	return nil
}
