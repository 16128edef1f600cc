package session

import "time"

// SetRepeatFlushDelay sets how long after the first held-back repeat the
// timer writes them (0: the repeat window), so a test decides whether the
// timer runs during it rather than the machine's load.
func SetRepeatFlushDelay(d time.Duration) { repeatFlushDelay = d }
