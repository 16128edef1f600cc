package agenthook

import "github.com/sessiongate/sessiongate/session"

// owesReport: a Codex or Gemini CLI shell call whose post-tool hook must
// come (TOOL_RESULT_MISSING when it never does). install sends only their
// shell tool to a post hook (hooks/agentconfig.go).
//   - Codex: Bash, ided by tool_use_id, and only a call that asked nobody:
//     with permission_mode "bypassPermissions" no approval can be
//     declined, and a declined call's post is unmeasured.
//   - Gemini CLI: run_shell_command, ided by session and command line
//     (gemini.go); BeforeTool fires once the call runs, after any
//     confirmation (executeToolWithHooks), so a declined call owes none.
func owesReport(ev *Event) bool {
	if ev.ToolID == "" || ev.Tool.Kind != session.ToolShell {
		return false
	}
	switch ev.Agent {
	case "codex":
		return ev.Tool.Name == "Bash" && ev.PermissionMode == "bypassPermissions"
	case "gemini":
		return ev.Tool.Name == "run_shell_command"
	case "cursor":
		// beforeShellExecution, not a preToolUse of Shell for the same
		// call: afterShellExecution reports the former.
		return ev.Name == "beforeShellExecution"
	}
	return false
}
