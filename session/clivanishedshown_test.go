package session

import (
	"strings"
	"testing"
)

// TestVanishedShown (round 30, c11): what the dashboard reads as a
// vanished agent CLI: a call settled as cli-vanished (the settlement
// settleRunningCall writes) and a resume mark (keepCLI's token), each
// named for a person; not an honest settlement (interrupted, cli-ended,
// missing), a report, or a token that only ends in the word.
func TestVanishedShown(t *testing.T) {
	evs := []Event{
		{Token: TokenToolUnreported, Detail: "claude toolu_1 interrupted"},
		{Token: TokenToolUnreported, Detail: "claude toolu_2 cli-ended"},
		{Token: TokenToolUnreported, Detail: "claude toolu_3 missing"},
		{Token: TokenToolResult, Detail: "claude cli-vanished"},
		{Token: "agent:claude:sub:cli-vanished", Detail: "x"},
		{Token: TokenToolUnreported, Detail: "claude toolu_4 " + SettledCLIVanished},
		{Token: cliVanishedToken("codex"), Detail: "11:22 ended without SessionEnd; its turn continues under 33:44"},
	}
	got := VanishedShown(evs)
	if len(got) != 2 {
		t.Fatalf("VanishedShown = %+v, want the settled call and the resume", got)
	}
	if got[0].Agent != "claude" || got[0].Call != "toolu_4" || got[0].Resumed ||
		got[0].Line() != "Agent CLI vanished during a tool call: Claude Code was killed or crashed while call toolu_4 ran, so no result came back for it." {
		t.Errorf("settled call: %+v %q", got[0], got[0].Line())
	}
	if got[1].Agent != "codex" || !got[1].Resumed || !strings.HasPrefix(got[1].Line(), "Agent CLI vanished: Codex") || !strings.Contains(got[1].Line(), "continued its turn") {
		t.Errorf("resume: %+v %q", got[1], got[1].Line())
	}
	for _, tok := range CLIVanishedTokens() {
		if tok != TokenToolUnreported && !strings.HasSuffix(tok, ":cli-vanished") {
			t.Errorf("CLIVanishedTokens holds %q", tok)
		}
	}
}
