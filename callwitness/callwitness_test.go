package callwitness

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/transcript"
)

const (
	claudeHooks = `{"hooks":{"PreToolUse":[{"matcher":"Bash|Read","hooks":[{"type":"command","command":"sessiongate agent-hook claude pre-tool"}]}]}}`
	geminiHooks = `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"sessiongate agent-hook gemini before-tool"}]}]}}`
	digestA     = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	digestB     = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// witness is agent's witness over config and the hook's event details;
// loads counts how many times Load ran.
func witness(agent, config string, details []string, loads *int) *Witness {
	return New(agent, nil, func(w *Witness) {
		*loads++
		if config != "" {
			w.Config = append(w.Config, []byte(config))
		}
		for _, d := range details {
			w.Saw(d)
		}
	})
}

// TestUnwitnessed: a Claude Code call counts when the hook config does not
// route its tool (nothing to compare), or when the hook kept its id with
// the same input (or no digest, an older hook's event); a line the hook
// never saw, or a real id with another input, does not.
func TestUnwitnessed(t *testing.T) {
	for _, tt := range []struct {
		name, config string
		details      []string
		call         transcript.Call
		want         string // "" counts; else a word of the reason
	}{
		{"seen with its input", claudeHooks, []string{"toolu_1 Bash " + digestA}, transcript.Call{ID: "toolu_1", Tool: "Bash", Witness: digestA}, ""},
		{"an older hook's event: no digest", claudeHooks, []string{"toolu_1 Bash"}, transcript.Call{ID: "toolu_1", Tool: "Bash", Witness: digestA}, ""},
		{"never seen", claudeHooks, nil, transcript.Call{ID: "toolu_9", Tool: "Bash", Witness: digestA}, "never saw call toolu_9"},
		{"a real id with another command", claudeHooks, []string{"toolu_1 Bash " + digestA}, transcript.Call{ID: "toolu_1", Tool: "Bash", Witness: digestB, Command: "sh test.sh"}, "other input"},
		{"a tool the config does not route", claudeHooks, nil, transcript.Call{ID: "toolu_2", Tool: "Grep", Witness: digestA}, ""},
		{"no hook config", "", nil, transcript.Call{ID: "toolu_3", Tool: "Bash", Witness: digestA}, ""},
		{"a tool no hook witnesses", claudeHooks, nil, transcript.Call{ID: "toolu_4", Tool: "Write"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			loads := 0
			w := witness(transcript.Claude, tt.config, tt.details, &loads)
			got := w.Unwitnessed(tt.call)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("Unwitnessed = %q, want %q", got, tt.want)
			}
			w.Unwitnessed(tt.call)
			if loads > 1 {
				t.Errorf("Load ran %d times, want at most once", loads)
			}
		})
	}
}

// TestTake: Gemini CLI's shell lines each use up one witness of their
// command line; a second line of a command run once, and a pass the
// post-tool hook never observed, do not count.
func TestTake(t *testing.T) {
	run := func(id, digest string, exit int) transcript.Call {
		return transcript.Call{ID: id, Tool: "run_shell_command", Kind: transcript.Run, Witness: digest, Command: "sh test.sh", Exit: exit}
	}
	for _, tt := range []struct {
		name     string
		details  []string
		observed []int // exit statuses the post-tool hook observed for `sh test.sh`
		calls    []transcript.Call
		want     []string // per call: "" counts, else a word of the reason
	}{
		{"one run, one line", []string{"g1 run_shell_command " + digestA}, nil, []transcript.Call{run("1", digestA, 0)}, []string{""}},
		{"one run, two lines", []string{"g1 run_shell_command " + digestA}, nil, []transcript.Call{run("1", digestA, 0), run("2", digestA, 0)}, []string{"", "used every one"}},
		{"two runs, two lines", []string{"g1 run_shell_command " + digestA, "g2 run_shell_command " + digestA}, nil, []transcript.Call{run("1", digestA, 0), run("2", digestA, 0)}, []string{"", ""}},
		{"a forged pass after a failing run", []string{"g1 run_shell_command " + digestA}, []int{1}, []transcript.Call{run("1", digestA, 0)}, []string{"which no run the hook saw gave"}},
		{"the observed pass", []string{"g1 run_shell_command " + digestA}, []int{0}, []transcript.Call{run("1", digestA, 0)}, []string{""}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			loads := 0
			w := New(transcript.Gemini, nil, func(w *Witness) {
				loads++
				w.Config = append(w.Config, []byte(geminiHooks))
				for _, d := range tt.details {
					w.Saw(d)
				}
				for _, e := range tt.observed {
					w.Observe("sh test.sh", e)
				}
			})
			var st transcript.State
			got := w.Take(tt.calls, &st)
			for i := range tt.want {
				if tt.want[i] == "" && got[i] != "" || tt.want[i] != "" && !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("call %d: %q, want %q", i, got[i], tt.want[i])
				}
			}
			// What the lines used is kept: a later check of the same
			// transcript state finds the witnesses used.
			if tt.want[0] == "" && st.Witnessed[digestA] == 0 {
				t.Errorf("st.Witnessed = %v: the used witness is not kept", st.Witnessed)
			}
			if loads != 1 {
				t.Errorf("Load ran %d times, want once", loads)
			}
		})
	}
	// A later gate check of the same transcript starts from what earlier
	// ones used: the witness is spent.
	w := New(transcript.Gemini, []map[string]int{{digestA: 1}}, func(w *Witness) {
		w.Config = append(w.Config, []byte(geminiHooks))
		w.Saw("g1 run_shell_command " + digestA)
	})
	if got := w.Take([]transcript.Call{run("3", digestA, 0)}, &transcript.State{}); got[0] == "" {
		t.Error("a witness an earlier check used counted again")
	}
}

// TestReused: a second line under the id of a Claude Code call that failed
// does not count; a copy of a call that passed is left alone.
func TestReused(t *testing.T) {
	failed := transcript.Call{ID: "toolu_1", Tool: "Task", Failed: true}
	passed := transcript.Call{ID: "toolu_1", Tool: "Task"}
	w := New(transcript.Claude, nil, nil)
	var st transcript.State
	got := w.Reused([]transcript.Call{failed, passed}, &st)
	if got[0] != "" || !strings.Contains(got[1], "earlier line of it failed") {
		t.Errorf("Reused = %q", got)
	}
	if st.Witnessed["failed:toolu_1"] != 1 {
		t.Errorf("st.Witnessed = %v, want the failed id kept", st.Witnessed)
	}
	// The next check of the transcript's new lines still knows the id.
	if got := New(transcript.Claude, nil, nil).Reused([]transcript.Call{passed}, &st); got[0] == "" {
		t.Error("a copy read in a later check counted")
	}
	if got := New(transcript.Claude, nil, nil).Reused([]transcript.Call{passed, passed}, &transcript.State{}); got[1] != "" {
		t.Errorf("a copy of a passed call refused: %q", got[1])
	}
	if got := New(transcript.Gemini, nil, nil).Reused([]transcript.Call{failed, passed}, &transcript.State{}); got[1] != "" {
		t.Errorf("Gemini CLI's calls are Take's: %q", got[1])
	}
}

// TestSide: the four agents whose hooks witness calls, and no other.
func TestSide(t *testing.T) {
	for _, a := range []string{transcript.Claude, transcript.Codex, transcript.Gemini, transcript.Copilot} {
		if cfg, prefix, ok := Side(a); !ok || cfg == "" || !strings.HasPrefix(prefix, "sessiongate agent-hook "+a) {
			t.Errorf("Side(%s) = %q, %q, %v", a, cfg, prefix, ok)
		}
	}
	if _, _, ok := Side("cursor"); ok {
		t.Error("Side(cursor) ok")
	}
}
