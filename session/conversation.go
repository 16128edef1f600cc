package session

import (
	"github.com/sessiongate/sessiongate/conversation"
)

// The conversation log moved to conversation/ (a file log under the git
// directory, no Engine); these names stay because the CLI, the agent hooks
// and the person acts already use them.

// ConversationIdle is conversation.Idle.
const ConversationIdle = conversation.Idle

type (
	// Conversation is conversation.Conversation.
	Conversation = conversation.Conversation
	// ConversationRemoval is conversation.Removal.
	ConversationRemoval = conversation.Removal
	// ConversationLog is conversation.Log.
	ConversationLog = conversation.Log
	// Hook is conversation.Hook.
	Hook = conversation.Hook
)

// Hooks, as conversation names them.
const (
	HookOther = conversation.HookOther
	HookStart = conversation.HookStart
	HookEnd   = conversation.HookEnd
)

// ConversationLogAt is conversation.LogAt.
func ConversationLogAt(commonDir string) ConversationLog { return conversation.LogAt(commonDir) }
