package store

import (
	"testing"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store/storetest"
)

// TestConformance runs the store conformance suite against SQLite.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) session.Store { return openTest(t) })
}
