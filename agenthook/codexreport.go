package agenthook

import "github.com/sessiongate/sessiongate/session"

// codexOwesReport: a Codex shell call whose PostToolUse must come. install
// sends only Bash to PostToolUse (hooks/agentconfig.go), and only a call
// that asked nobody: with permission_mode "bypassPermissions" no approval
// can be declined, and a declined call's post is unmeasured (it could
// flag honest runs). Codex ids every call (tool_use_id).
func codexOwesReport(ev *Event) bool {
	return ev.Agent == "codex" && ev.ToolID != "" && ev.Tool.Name == "Bash" && ev.Tool.Kind == session.ToolShell && ev.PermissionMode == "bypassPermissions"
}
