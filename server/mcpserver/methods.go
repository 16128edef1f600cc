package mcpserver

import "slices"

// mcpMethods are the methods an MCP server receives from a client (the
// SDK's server method table, MCP 2025-06-18 through 2026-07-28). Built on
// call: only a refused request reads it.
func mcpMethods() []string {
	return []string{
		"initialize", "ping", "server/discover",
		"tools/list", "tools/call",
		"resources/list", "resources/templates/list", "resources/read",
		"resources/subscribe", "resources/unsubscribe", "subscriptions/listen",
		"prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
		"notifications/initialized", "notifications/cancelled",
		"notifications/progress", "notifications/roots/list_changed",
	}
}

// isMCPMethod lets the HTTP rewriter tell "method not found" from "invalid
// request" without reading the SDK's error wording, which may change in
// any release; TestMethodsMatchSDK keeps the list in step with the SDK.
func isMCPMethod(method string) bool { return slices.Contains(mcpMethods(), method) }
