package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/gateprog"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// TokStartPrograms records, at a session's start, where the programs a
// gate's command runs resolved (gateprog.Start) and the folders that say
// where runners read per-user config (gateenv.PinnedVars): a program
// written after the start into a folder on the gate's PATH, or `HOME=/tmp/fh
// sessiongate session end` with a `.cargo/config.toml` runner there,
// answered for the tests (round 26 left both open; issue 25.7). The DB is
// local; the records ref never carries it (machine-local paths).
const TokStartPrograms = "gateenv:start_programs"

// startPrograms is the event's detail.
type startPrograms struct {
	gateprog.Start
	Vars map[string]string `json:"vars"`
}

// startProgramsEvent is the event Start appends: the runners and the
// programs of the protocol's and config's commands, resolved on the PATH
// a gate would use now.
func startProgramsEvent(s *Session, spec *protocolspec.Spec, cfg Config) *Event {
	var lines []string
	if spec != nil {
		for i := range spec.Phases {
			for _, c := range GateChecks(&spec.Phases[i], cfg.Commands) {
				if c.Kind == protocolspec.CheckCommand {
					lines = append(lines, c.Arg)
				}
			}
		}
	}
	env, _ := gateenv.CleanFor(os.Environ(), gateenv.Options{Root: s.Worktree, StartPath: os.Getenv("PATH"), StartPathBound: true})
	b, _ := json.Marshal(startPrograms{Start: gateprog.Record(env, lines), Vars: gateenv.PinnedVars(os.Environ())})
	return &Event{SessionID: s.ID, Token: TokStartPrograms, Detail: string(b), CreatedAt: s.CreatedAt}
}

// startProgramsOf reads session s's start record (ok false for a session
// from before it kept one).
func startProgramsOf(ctx context.Context, st Store, s *Session) (startPrograms, bool, error) {
	evs, err := startEvent(ctx, st, s.ID, TokStartPrograms)
	if err != nil {
		return startPrograms{}, false, fmt.Errorf("read the programs the session started with: %w", err)
	}
	if len(evs) == 0 {
		return startPrograms{}, false, nil
	}
	var sp startPrograms
	if json.Unmarshal([]byte(evs[0].Detail), &sp) != nil || sp.Programs == nil {
		return startPrograms{}, false, nil
	}
	return sp, true, nil
}

// programsWhy says why a line's programs cannot answer for session s
// ("" when they can, or the session kept no start record).
func (e *Engine) programsWhy(ctx context.Context, s *Session, line string, env []string, root string) (string, error) {
	sp, ok, err := startProgramsOf(ctx, e.Store, s)
	if err != nil || !ok {
		return "", err
	}
	since := sp.At
	if since.IsZero() {
		since = s.CreatedAt
	}
	return gateprog.Why(line, env, root, sp.Start, since), nil
}

// programsWhyOf is programsWhy bound to s, for a gate's command.
func (e *Engine) programsWhyOf(s *Session) func(ctx context.Context, line string, env []string, root string) (string, error) {
	return func(ctx context.Context, line string, env []string, root string) (string, error) {
		return e.programsWhy(ctx, s, line, env, root)
	}
}
