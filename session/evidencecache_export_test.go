package session

// EvidenceCacheHits is how many gate evidence reads the engine answered
// from its evidence cache (tests).
func EvidenceCacheHits(e *Engine) int {
	e.evidence.mu.Lock()
	defer e.evidence.mu.Unlock()
	return e.evidence.hits
}
