package session

// GateSessionHits is how many gate calls took their session from the
// engine's kept rows (tests).
func GateSessionHits(e *Engine) int {
	e.gateSessions.mu.Lock()
	defer e.gateSessions.mu.Unlock()
	return e.gateSessions.hits
}
