package teamindex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/filelock"
)

// lockMirror takes this process's exclusive hold on a mirror for a fetch
// (a flock the kernel drops when the process ends, however it ends), and
// then removes the ref lock files a fetch killed mid-write left behind:
// with the hold taken no other index run is fetching here, so any such
// lock is stale, and git would refuse every later fetch over it ("cannot
// lock ref ...: File exists"), so a killed run would never resume.
func lockMirror(ctx context.Context, mirror, ref string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(mirror, "sessiongate-index.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock the mirror %s: %w", mirror, err)
	}
	for {
		held, err := filelock.TryLock(f)
		if held {
			break
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock the mirror %s: %w", mirror, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("lock the mirror %s: another index run holds it: %w", mirror, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	stales := []string{filepath.Join(mirror, "packed-refs.lock")}
	if strings.HasPrefix(ref, "refs/") && !strings.Contains(ref, "..") { // inside the mirror
		stales = append(stales, filepath.Join(mirror, filepath.FromSlash(ref)+".lock"))
	}
	for _, stale := range stales {
		if err := os.Remove(stale); err != nil && !errors.Is(err, os.ErrNotExist) {
			f.Close()
			return nil, fmt.Errorf("remove the stale lock %s: %w", stale, err)
		}
	}
	return func() { f.Close() }, nil // closing the file drops the flock
}
