package snapshot

// Who made a commit no session covered travels on the records ref next to
// the session records (recordref.ActorsDir), so CI can tell a person's
// commit from an agent's without a database.

// Actor kinds.
const (
	ActorPerson = "person"
	ActorAgent  = "agent"
)

// Commit kinds.
const (
	KindCommit   = "commit"
	KindAdoption = "adoption" // `sessiongate init --commit`
	// KindHooksOff is a session's commit made by a CLI that runs git with
	// hooks off (Gemini CLI), judged at its post-tool hook.
	KindHooksOff = "hooks-off"
)

// MaxActorBytes bounds one actor record (they hold a few short fields).
const MaxActorBytes = 8 << 10

// CommitActor says who made one commit outside any session, and why the
// hook took it for that: references, never file contents.
type CommitActor struct {
	Version int    `json:"version"`
	Commit  string `json:"commit"`
	Actor   string `json:"actor"`           // person or agent
	Agent   string `json:"agent,omitempty"` // which agent, when Actor is agent
	Kind    string `json:"kind"`            // commit or adoption
	// Author is git's author of the commit ("Name <email>"), for /team and
	// verify's output; it is in the commit already.
	Author string `json:"author,omitempty"`
	// Via is how the hook decided: "no coding agent in the environment or
	// process ancestry", "CLAUDECODE set", "under claude (pid 123)".
	Via string `json:"via"`
	At  string `json:"at"` // RFC 3339
	// Session is set for a commit of a session that git ran no hook for
	// (KindHooksOff): no commit-msg added its Session-Id trailer, so this
	// record maps it to the session instead of rewriting history. verify
	// judges it as a commit of that session, which must have recorded it
	// as passing its pre-commit: naming a session proves nothing alone.
	Session string `json:"session,omitempty"`
}
