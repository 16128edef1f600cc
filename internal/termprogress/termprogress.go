// Package termprogress shows command gates' progress on a terminal: the
// command, the time it has been running, and the tail of its output when
// it fails. Off a terminal it shows nothing (logs and pipes stay quiet).
package termprogress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/session"
)

// For returns progress for w when w is a terminal, else nil.
func For(w io.Writer) session.CommandProgress {
	f, ok := w.(*os.File)
	if !ok || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return nil
	}
	return &Terminal{W: w, Tick: time.Second}
}

// Terminal writes progress lines to W, redrawing the elapsed time every Tick.
type Terminal struct {
	W    io.Writer
	Tick time.Duration

	mu   sync.Mutex
	stop chan struct{}
	done chan struct{}
}

// CommandStarted prints the command and starts the elapsed-time line.
func (t *Terminal) CommandStarted(phase, command string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopTicker()
	fmt.Fprintf(t.W, "sessiongate: %s: running `%s`\n", phase, shorten.Line(command, 120, "…"))
	stop, done := make(chan struct{}), make(chan struct{})
	t.stop, t.done = stop, done
	start := time.Now()
	go func() {
		defer close(done)
		tk := time.NewTicker(t.Tick)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				t.mu.Lock()
				fmt.Fprintf(t.W, "\r\033[K  %s: %s elapsed", phase, time.Since(start).Round(time.Second))
				t.mu.Unlock()
			}
		}
	}()
}

// CommandDone clears the elapsed-time line and prints the outcome, with
// the output's tail when the command failed.
func (t *Terminal) CommandDone(phase, command string, status session.GateStatus, elapsed time.Duration, tail string) {
	t.mu.Lock()
	t.stopTicker()
	defer t.mu.Unlock()
	fmt.Fprintf(t.W, "\r\033[Ksessiongate: %s: `%s` %s after %s\n", phase, shorten.Line(command, 120, "…"), status, elapsed.Round(10*time.Millisecond))
	if status == session.StatusFail && strings.TrimSpace(tail) != "" {
		for _, l := range strings.Split(strings.TrimRight(tail, "\n"), "\n") {
			fmt.Fprintf(t.W, "  | %s\n", l)
		}
	}
}

// stopTicker ends the elapsed-time goroutine; t.mu is held (released while
// waiting, so a tick in progress can finish).
func (t *Terminal) stopTicker() {
	if t.stop == nil {
		return
	}
	close(t.stop)
	done := t.done
	t.stop, t.done = nil, nil
	t.mu.Unlock()
	<-done
	t.mu.Lock()
}
