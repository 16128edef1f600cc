// Command sessiongate enforces an AI agent's session protocol in a git
// repository. main only wires: the work happens in the packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/store"
)

// Exit codes.
const (
	exitOK      = 0
	exitBlocked = 1 // gate failed, commit blocked, lint errors
	exitUsage   = 2 // usage or environment error
)

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func blocked(format string, a ...any) error {
	return &exitError{code: exitBlocked, err: fmt.Errorf(format, a...)}
}

func usage(err error) error { return &exitError{code: exitUsage, err: err} }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := startProfile()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	defer a.close()
	root := newRootCmd(a)
	if len(args) > 0 && strings.HasPrefix(args[0], cobra.ShellCompRequestCmd) {
		// Only a completion request uses them; a hook process is spared
		// walking every command's flags.
		a.registerCompletions(root)
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	if ctx.Err() != nil {
		// SIGINT/SIGTERM: the running gate command was killed and the
		// transaction that would have recorded it rolled back. The error
		// need not wrap context.Canceled: a git process the signal killed
		// before the gate's command started fails as "signal: killed".
		if !errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "sessiongate:", err)
		}
		fmt.Fprintln(stderr, "sessiongate: interrupted; nothing was recorded for the step that was running")
		return exitUsage
	}
	if store.IsCorrupt(err) && a.dbFile != "" {
		// Damage found after opening, by a query.
		fmt.Fprintln(stderr, "sessiongate:", err)
		fmt.Fprintln(stderr, "sessiongate:", store.CorruptHint(a.dbFile))
		return exitUsage
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "sessiongate:", ee.err)
		}
		return ee.code
	}
	// Anything cobra itself rejects (unknown flag or command) and every
	// environment problem is a usage error.
	fmt.Fprintln(stderr, "sessiongate:", err)
	return exitUsage
}
