package snapshot

// ConversationRef names an agent conversation a session was bound to: the
// agent and the conversation's opaque id as the agent's hooks give it
// (Claude Code's session_id, Cursor's conversation_id, ...), never
// anything of its content. verify ties a session in its range to the
// sessions removed from the same conversation by it (docs/security.md,
// "Ending a session is a person's act").
type ConversationRef struct {
	Agent string `json:"agent"`
	ID    string `json:"id"`
}
