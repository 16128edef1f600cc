package figures

import "fmt"

// The code under each figure is derived (Code.Paths): the module's
// packages its Go entry points depend on, plus the files listed here that
// no go list shows (scripts, seed programs named by file, go.sum).
var (
	// The MCP figures are bench/mcppeer's benchmarks: sessiongate's MCP
	// server in process beside a minimal go-sdk server.
	mcpBench = []string{"./bench/mcppeer"}
	// A commit's hooks are the sessiongate binary; bench/hooks.sh seeds its
	// database with bench/seed.go.
	hookPrograms = []string{"./cmd/sessiongate", "./bench/seed.go"}
	hookPaths    = []string{"bench/hooks.sh", "bench/seed.go", "go.sum"}
	// The dashboard figures run `sessiongate serve` on a database
	// bench/dashseed.go fills.
	dashPrograms = []string{"./cmd/sessiongate", "./bench/dashseed.go"}
	dashPaths    = []string{"bench/dashboard.sh", "bench/dashseed.go", "go.sum"}
)

const dashPeer = "`/sessions` (a page of the list) on the same server, interleaved request by request; curl's time_total"

func dashSummary(m Metrics) string {
	s := ""
	for _, db := range []string{"sqlite", "postgres"} {
		k := db + " 1000000 "
		if _, ok := m[k+"/"]; !ok {
			continue
		}
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("%s: `/` %.1f ms (p90 %.1f), %.2fx `/sessions` (%.1f ms)", db, get(m, k+"/", "median-ms"), get(m, k+"/", "p90-ms"),
			get(m, k+"/", "x"), get(m, k+"/sessions", "median-ms"))
		if _, ok := m[k+"/team"]; ok {
			s += fmt.Sprintf("; `/team` %.1f ms (p90 %.1f, %.1f KB), %.2fx `/sessions`", get(m, k+"/team", "median-ms"), get(m, k+"/team", "p90-ms"), get(m, k+"/team", "kb"), get(m, k+"/team", "x"))
		}
	}
	return s
}

func get(m Metrics, bench, unit string) float64 { return m[bench][unit] }

func hooksSummary(m Metrics) string {
	sg := get(m, "sg-all", "added-ms")
	base := get(m, "noop-sh-all", "added-ms")
	s := fmt.Sprintf("sessiongate's 3 hooks +%.1f ms (three no-op sh hooks +%.1f)", sg, base)
	for _, p := range []string{"lefthook", "husky", "pre-commit"} {
		if a, ok := m[p]["added-ms"]; ok && sg > 0 {
			s += fmt.Sprintf("; %s +%.1f = %.2fx", p, a, a/sg)
		}
	}
	if c, n := get(m, "sg-all", "cpu-ms"), get(m, "none", "cpu-ms"); c > 0 {
		s += fmt.Sprintf("; CPU over no hooks: sessiongate +%.0f ms", c-n)
		for _, p := range []string{"lefthook", "husky", "pre-commit"} {
			if pc, ok := m[p]["cpu-ms"]; ok {
				s += fmt.Sprintf(", %s +%.0f (%.2fx)", p, pc-n, (pc-n)/(c-n))
			}
		}
	}
	return s
}

// agentHookEvents are bench/agenthooks.sh's events, in its order.
var agentHookEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse-Write", "PreToolUse-Bash", "PreToolUse-MCP", "PostToolUse-Bash", "Stop", "Stop-edited"}

func agentHooksSummary(m Metrics) string {
	s := ""
	for _, e := range agentHookEvents {
		v, ok := m[e]
		if !ok {
			continue
		}
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("%s %.1f ms, %.1fx", e, v["sg-ms"], v["x"])
	}
	s += " (python no-op / sessiongate, paired run by run)"
	if v, ok := m[agentHookEvents[0]]["true-ms"]; ok {
		s += fmt.Sprintf("; /bin/true %.1f ms (the spawn floor)", v)
	}
	return s
}

// All is every figure bench/figures owns, in the order the docs list them.
var All = []Figure{
	{
		Name: "mcp-stdio", Title: "MCP validate_gate over stdio",
		Command:    "go test ./bench/mcppeer -run '^$' -bench StdioVsPeer -benchtime 5x",
		Peer:       "a trivial tool on a minimal go-sdk server (bench/mcppeer), and a trivial tool on sessiongate's own server",
		Goal:       "validate_gate at most 2x the peer's trivial tool",
		Paths:      []string{"go.sum"},
		Benchmarks: mcpBench,
		Summary: func(m Metrics) string {
			b := "BenchmarkStdioVsPeer"
			return fmt.Sprintf("validate_gate %.0f calls/s, %.0f cpu-µs/call: %.2fx the peer's CPU per call, %.2fx by calls/s; sessiongate's ping %.2fx the peer",
				get(m, b, "validate_gate-calls/s"), get(m, b, "validate_gate-cpu-µs/call"),
				1/get(m, b, "validate_gate/peer_ping-cpu-x"), 1/get(m, b, "validate_gate/peer_ping-x"), 1/get(m, b, "sg_ping/peer_ping-cpu-x"))
		},
	},
	{
		Name: "mcp-http", Title: "MCP validate_gate over HTTP, 1-8 clients",
		Command:    "go test ./bench/mcppeer -run '^$' -bench HTTPVsPeer -benchtime 5x",
		Peer:       "a trivial tool on a minimal go-sdk server's streamable HTTP handler (stateless, JSON), same clients",
		Goal:       "validate_gate at most 2x the peer; calls/s grow with clients",
		Paths:      []string{"go.sum"},
		Benchmarks: mcpBench,
		Summary: func(m Metrics) string {
			s := ""
			for _, c := range []string{"1", "2", "4", "8"} {
				b := "BenchmarkHTTPVsPeer/clients=" + c
				if _, ok := m[b]; !ok {
					continue
				}
				if s != "" {
					s += "; "
				}
				s += fmt.Sprintf("%s client(s): %.0f calls/s, %.2fx the peer (CPU %.2fx)", c,
					get(m, b, "validate_gate-calls/s"), 1/get(m, b, "validate_gate/peer_ping-x"), 1/get(m, b, "validate_gate/peer_ping-cpu-x"))
			}
			return s
		},
	},
	{
		Name: "parser", Title: "Protocol parser (18.7 KB fixture)",
		Command:    "go test ./protocolspec -run '^$' -bench ParseVsGoldmark -benchtime 1000x -count 1",
		Peer:       "goldmark's bare parse of the same bytes, alternated iteration by iteration",
		Goal:       "at most 2 ms and 1.5x goldmark",
		Paths:      []string{"go.sum"},
		Benchmarks: []string{"./protocolspec"},
		Summary: func(m Metrics) string {
			b := "BenchmarkParseVsGoldmark"
			return fmt.Sprintf("%.2f ms against goldmark's %.2f ms: %.2fx", get(m, b, "parse-ms"), get(m, b, "goldmark-ms"), get(m, b, "ratio"))
		},
	},
	{
		Name: "records", Title: "One record onto the records ref at 10,000",
		Command:    "go test ./recordref -run '^$' -bench PutVsNotes -benchtime 60x",
		Peer:       "`git notes add` onto a notes ref of 10,000 notes, alternated",
		Goal:       "at most 1.5x git notes add",
		Paths:      []string{"go.sum"},
		Benchmarks: []string{"./recordref"},
		Summary: func(m Metrics) string {
			b := "BenchmarkPutVsNotes"
			return fmt.Sprintf("%.1f ms against %.1f ms: %.2fx (median of paired ratios)", get(m, b, "put-ms"), get(m, b, "notes-ms"), get(m, b, "put/notes-x"))
		},
	},
	{
		Name: "commit-listing-fetched", Title: "Session's commit listing with a tip of main fetched since the start",
		Command:    "go test ./gitrepo -run '^$' -bench CommitListingFetched -benchtime 40x",
		Peer:       "the same listing in the same clone with FETCH_HEAD naming the tip the start recorded (not judged again), alternated",
		Goal:       "a tip the start recorded costs no git process (TestFetchedForeignSkipsHeld); one fetched since at most 2x",
		Paths:      []string{"go.sum"},
		Benchmarks: []string{"./gitrepo"},
		Summary: func(m Metrics) string {
			b := "BenchmarkCommitListingFetched"
			return fmt.Sprintf("%.1f ms against %.1f ms: %.2fx (median of paired ratios)", get(m, b, "fetched-after-ms"), get(m, b, "fetched-before-ms"), get(m, b, "ratio"))
		},
	},
	{
		Name: "dashboard-sqlite-1m", Title: "Dashboard at 1,000,000 SQLite sessions, through `serve`",
		Command:  "SIZES=1000000 ROUNDS=60 bash bench/dashboard.sh",
		Peer:     dashPeer,
		Goal:     "`/` at most 3x `/sessions`",
		Paths:    dashPaths,
		Programs: dashPrograms,
		Summary:  dashSummary,
	},
	{
		Name: "dashboard-pg-1m", Title: "Dashboard at 1,000,000 PostgreSQL sessions, through `serve`",
		Command:  "PG=1 SQLITE=0 PORT=7600 SIZES=1000000 ROUNDS=60 bash bench/dashboard.sh",
		Peer:     dashPeer,
		Goal:     "`/team` within 50 ms (client side)",
		Paths:    dashPaths,
		Programs: dashPrograms,
		Summary:  dashSummary,
	},
	{
		// No agent CLI is above these hooks: each pays the ancestry walk
		// and the check that no conversation's CLI still runs
		// (agenthook.refuseNotFromCLI), the costlier of its two paths.
		Name: "agent-hooks", Title: "One agent hook event (Claude Code's payloads), 10,000 sessions",
		Command:  "RUNS=15 bash bench/agenthooks.sh",
		Peer:     "a Python no-op hook that parses the same JSON (the interpreter itself), and /bin/true, interleaved run by run",
		Goal:     "each event at most 10 ms median wall time and 10x faster than the Python no-op (issue 10; not met by a process per event)",
		Paths:    []string{"bench/agenthooks.sh", "bench/seed.go", "go.sum"},
		Programs: hookPrograms,
		Summary:  agentHooksSummary,
	},
	{
		Name: "hooks-5k", Title: "Hooks per commit, 5,000 files",
		Command:  "RUNS=25 FILES=5000 PEERS=DIR OUT=DIR bash bench/hooks.sh",
		Peer:     "lefthook 2, husky 9, the pre-commit framework (no-op hooks) and three no-op sh hooks, interleaved",
		Goal:     "every hook a commit runs adds at most 15 ms; 5x less than lefthook",
		Paths:    hookPaths,
		Programs: hookPrograms,
		Summary:  hooksSummary,
	},
	{
		Name: "hooks-20k", Title: "Hooks per commit, 20,000 files",
		Command:  "RUNS=25 FILES=20000 PEERS=DIR OUT=DIR bash bench/hooks.sh",
		Peer:     "lefthook 2, husky 9, the pre-commit framework (no-op hooks) and three no-op sh hooks, interleaved",
		Goal:     "every hook a commit runs adds at most 15 ms; 5x less than lefthook",
		Paths:    hookPaths,
		Programs: hookPrograms,
		Summary:  hooksSummary,
	},
}

// ByName finds a figure.
func ByName(name string) (Figure, bool) {
	for _, f := range All {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}
