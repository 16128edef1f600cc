package session

import "context"

// ShellCallPending is shellCallPending, for the bounded reader's tests.
func (e *Engine) ShellCallPending(ctx context.Context, sessionID string) (bool, error) {
	return e.shellCallPending(ctx, sessionID)
}

// ShellCallPendingAllEvents is the reader before round 29 (every event of
// the session), kept for the differential test.
func (e *Engine) ShellCallPendingAllEvents(ctx context.Context, sessionID string) (bool, error) {
	evs, err := e.Store.ListEvents(ctx, sessionID, 0, 0)
	if err != nil {
		return false, err
	}
	for _, agent := range reportingAgents {
		for _, p := range owedReports(evs, agent) {
			if shellTools[p.tool] {
				return true, nil
			}
		}
	}
	return false, nil
}
