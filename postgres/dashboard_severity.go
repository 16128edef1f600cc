package postgres

import (
	"context"
	"fmt"
)

const violationSeveritiesSQL = `SELECT session_id, severity, count(*) FROM violations
	WHERE session_id = ANY($1) GROUP BY session_id, severity`

// ViolationSeverities counts each given session's violations by severity
// (the dashboard's sessions list shows the worst one). Sessions without a
// violation are absent.
func (r reader) ViolationSeverities(ctx context.Context, ids []string) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := r.q.Query(ctx, violationSeveritiesSQL, ids)
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
