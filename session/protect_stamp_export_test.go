package session

import (
	"time"

	"github.com/sessiongate/sessiongate/protect"
)

// SetStampNow moves the stamp cache's racy-rule clock (tests).
func SetStampNow(f func() time.Time) { protect.SetStampNow(f) }
