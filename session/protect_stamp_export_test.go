package session

import "time"

// SetStampNow moves the stamp cache's racy-rule clock (tests).
func SetStampNow(f func() time.Time) { stampNow = f }
