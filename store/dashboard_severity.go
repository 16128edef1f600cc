package store

import (
	"context"
	"fmt"
)

// ViolationSeverities counts each given session's violations by severity
// (for the sessions list, which shows the worst one). Sessions without a
// violation are absent. It reads through the violations_session index, so
// a page of 50 sessions costs 50 index probes at most.
func (r reader) ViolationSeverities(ctx context.Context, ids []string) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := r.q.QueryContext(ctx, violationSeveritiesSQL(len(ids)), args...)
	if err != nil {
		return nil, fmt.Errorf("violation severities: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, sev string
		var n int
		if err := rows.Scan(&id, &sev, &n); err != nil {
			return nil, fmt.Errorf("violation severities: %w", err)
		}
		if out[id] == nil {
			out[id] = map[string]int{}
		}
		out[id][sev] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("violation severities: %w", err)
	}
	return out, nil
}

func violationSeveritiesSQL(n int) string {
	return `SELECT session_id, severity, COUNT(*) FROM violations
		WHERE session_id IN (` + placeholders(n) + `) GROUP BY session_id, severity`
}
