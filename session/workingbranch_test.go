package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestWorkingBranchCheck: a branch check run while working is the end
// phase's "Re-verify the branch before commit", not the start phase's
// whose text quotes the command (round 24: the honest Copilot run was
// blocked at session end). Other runs, and runs outside WORKING, keep
// their attribution.
func TestWorkingBranchCheck(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := protocolspec.Parse("SESSION-PROTOCOL.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		state State
		cmd   string
		want  string
	}{
		{StateWorking, "git branch --show-current", "GIT_OPERATIONS"},
		{StateWorking, "git status", "GIT_OPERATIONS"},
		{StateWorking, "git branch --list zzz", ""},
		{StateWorking, "sh scripts/test.sh", ""},
		{StateInit, "git branch --show-current", ""},
		{StateEnding, "git branch --show-current", ""},
	} {
		s := &Session{State: tt.state}
		if got := workingBranchCheck(spec, s, tt.cmd); got != tt.want {
			t.Errorf("%s, %q: workingBranchCheck = %q, want %q", tt.state, tt.cmd, got, tt.want)
		}
	}
}
