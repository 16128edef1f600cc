package transcript

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestGeminiRewriteJudged (round 25, c2): Gemini CLI 0.61 rewrites its chat
// recording in one case, read in its bundle (ChatRecordingService
// .rewriteConversationFile, when a resumed recording fails to load): it
// renames the file aside to `<file>.unreadable-<Date.now()>` and renames
// `<file>.tmp-<pid>` over the path. That was TRANSCRIPT_TAMPERED (HIGH,
// verify fails) on honest work. Now it is the CLI's rename when the file
// set aside is the one the hook sealed, its sealed bytes unchanged; any
// other rename stays tampering.
func TestGeminiRewriteJudged(t *testing.T) {
	const head = `{"sessionId":"s1","projectHash":"p"}` + "\n" + `{"id":"m1","type":"user","content":"go"}` + "\n"
	cases := []struct {
		name    string
		format  string
		rewrite func(t *testing.T, path string)
		want    error // nil: no error; ErrReplaced: the CLI's, reader starts over
	}{
		{"honest: Gemini CLI's rewriteConversationFile", Gemini, func(t *testing.T, path string) {
			mustRename(t, path, fmt.Sprintf("%s.unreadable-%d", path, 1764590000123))
			mustWrite(t, path+".tmp-4242", head)
			mustRename(t, path+".tmp-4242", path)
		}, ErrReplaced},
		{"lazy: a copy renamed over, nothing set aside", Gemini, func(t *testing.T, path string) {
			mustWrite(t, path+".tmp", head)
			mustRename(t, path+".tmp", path)
		}, ErrTampered},
		{"lazy: set aside, then its sealed bytes edited", Gemini, func(t *testing.T, path string) {
			aside := path + ".unreadable-1764590000123"
			mustRename(t, path, aside)
			b, _ := os.ReadFile(aside)
			b[len(b)-3] = 'X'
			mustWrite(t, aside, string(b))
			mustWrite(t, path, head)
		}, ErrTampered},
		{"lazy: a copy set aside, the sealed file edited and renamed over", Gemini, func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			mustWrite(t, path+".unreadable-1764590000123", string(b))
			mustWrite(t, path+".tmp", head)
			mustRename(t, path+".tmp", path)
		}, ErrTampered},
		{"lazy: the name not Gemini's (.unreadable-x)", Gemini, func(t *testing.T, path string) {
			mustRename(t, path, path+".unreadable-x")
			mustWrite(t, path, head)
		}, ErrTampered},
		{"lazy: Gemini's shape under Claude Code", Claude, func(t *testing.T, path string) {
			mustRename(t, path, path+".unreadable-1764590000123")
			mustWrite(t, path, head)
		}, ErrTampered},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "session-2026-12-01T12-04-235926e3.jsonl")
			mustWrite(t, path, head+`{"id":"m2","type":"gemini","content":"ran it"}`+"\n")
			seal, ok, err := Extend(path, State{})
			if err != nil || !ok {
				t.Fatalf("seal: %v %v", ok, err)
			}
			st := State{Seal: seal, PrefixSHA256: EmptySHA256}
			c.rewrite(t, path)
			got := JudgeReplaced(c.format, path, st, CheckSeal(path, st))
			if !errors.Is(got, c.want) || c.want == ErrReplaced && errors.Is(got, ErrTampered) {
				t.Errorf("JudgeReplaced = %v, want %v", got, c.want)
			}
		})
	}
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}
