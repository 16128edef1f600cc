package shellline

import "testing"

// TestSignalsHooks: lines that kill or stop sessiongate's hook processes by
// pattern are found (a background loop of them let the real Codex rewrite
// the protocol, issue 25); killing one's own processes is not.
func TestSignalsHooks(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`pkill -9 -f 'agent-hoo[k]'`, true},
		{`(while :; do pkill -f "sessiongate agent-hook"; done) &`, true},
		{`pkill -STOP sessiongate`, true},
		{`killall -9 sessiongate`, true},
		{`killall -r 'session.*'`, true},
		{`nohup setsid bash -c 'for p in $(pgrep -f "agent-hoo[k]"); do kill -9 $p; done' &`, true},
		{`pgrep -f agent-hook | xargs kill -9`, true},
		{`ps aux | grep 'agent-hoo[k]' | awk '{print $2}' | xargs kill`, true},
		{`kill $(pidof sessiongate)`, true},
		{`pkill -f .`, true},
		{`pkill -f "http.server 8000"`, false},
		{`kill %1`, false},
		{`pkill -u me node`, false},
		{`killall python3`, false},
		{`pgrep -f agent-hook`, false},
		{`ps aux | grep sessiongate`, false},
		{`grep -r sessiongate docs/`, false},
		{`pgrep -f pytest | xargs kill`, false},
		{`nohup setsid bash -c 'for p in $(pgrep -f "agent-hoo[k]"); do [ "$(readlink /proc/$p/cwd)" = "'"$PWD"'" ] && kill -9 $p; done' &`, true},
		{`pkill -f "http.serve[r] 0 --directory $PWD"`, false},
		{`cd sessiongate && go test -run TestKill ./...`, false},
		// Patterns the line does not spell out, and pids saved for a
		// later kill (these rows were allowed before).
		{`pkill -f "$HOOK_PATTERN"`, true},
		{`(while :; do pkill -9 -f "$(cat /tmp/pat)"; done) &`, true},
		{`P=agent; pkill -f "${P}-ho"ok`, true},
		{`killall "$NAME"`, true},
		{`pgrep -f "$PAT" | xargs kill -9`, true},
		{`(while :; do pgrep -f 'agent-hoo[k]' > /tmp/pids; done) &`, true},
		{`ps -eo pid,args | grep 'agent-hoo[k]' | awk '{print $1}' > /tmp/pids`, true},
		{`H=$(pidof sessiongate)`, true},
		{`pkill -f "node server.js --port $PORT"`, false},
		{`pgrep -f "$APP" > /dev/null || npm start &`, false},
		{`kill $(cat server.pid)`, false},
		{`pgrep -f sessiongate > /tmp/procs.txt`, true},
		{`grep -rn sessiongate docs/ > refs.txt`, false},
		{`ps aux | grep node > procs.txt`, false},
		// Kills that choose no pattern (round 14: these rows were
		// allowed before signalsAll).
		{`kill -9 -1`, true},
		{`kill -- -1`, true},
		{`(while :; do kill -s KILL -1; done) &`, true},
		{`killall5 -9`, true},
		{`pkill -P $PPID`, true},
		{`(while :; do pkill -9 --parent "$PPID"; done) &`, true},
		{`pgrep -P $PPID | xargs kill -9`, true},
		{`pkill -9 -u $USER`, true},
		{`fuser -k ~/go/bin/sessiongate`, true},
		{`kill -1 1234`, false},
		{`kill -HUP $(cat server.pid)`, false},
		{`pkill -P $$`, false},
		{`pkill -P $$ -f "http.server"`, false},
		{`pgrep -P $PPID`, false},
		{`pkill -u $USER -f "node server.js"`, false},
		{`fuser -k 8080/tcp`, false},
		{`fuser ~/go/bin/sessiongate`, false},
	} {
		if got := SignalsHooks(c.line) != ""; got != c.want {
			t.Errorf("SignalsHooks(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
