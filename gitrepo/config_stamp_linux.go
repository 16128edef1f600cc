package gitrepo

import (
	"bytes"
	"os"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"

	"golang.org/x/sys/unix"
)

// configStamp stamps files (following links: a linked config's content is
// its target's); empty when one cannot be cached (see filterCache).
func configStamp(files []string, now time.Time, readBodies bool) (string, bool) {
	var b strings.Builder
	for _, f := range files {
		var st unix.Stat_t
		var s [stampLen]byte
		if unix.Stat(f, &st) == nil {
			s = encodeStat(&st)
			if now.Sub(time.Unix(st.Ctim.Unix())) < racyWindow {
				return "", false
			}
			if readBodies {
				var body []byte
				var err error
				if f != os.DevNull { // GIT_CONFIG_GLOBAL=/dev/null: an empty config, a device
					body, err = boundedread.File(f, boundedread.DefaultLimit)
				}
				if err != nil || bytes.Contains(bytes.ToLower(body), []byte("include")) {
					return "", false
				}
			}
		}
		b.WriteString(f)
		b.WriteByte(0)
		b.Write(s[:])
	}
	return b.String(), true
}
