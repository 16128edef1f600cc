package session

// SetAfterTranscriptRead calls f with a Gemini CLI, Copilot or Claude Code
// transcript's path after each gate's first read of it, until restore is called.
func SetAfterTranscriptRead(f func(path string)) (restore func()) {
	afterFirstRead.Store(&f)
	return func() { afterFirstRead.Store(nil) }
}
