package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/teamindex"
)

// indexFlags are the team index's settings, shared by index and serve.
type indexFlags struct {
	sources  []string
	ref      string
	cacheDir string
}

func (f *indexFlags) add(cmd *cobra.Command, sourcesFlag bool) {
	if sourcesFlag {
		cmd.Flags().StringArrayVar(&f.sources, "index", nil, "keep the --db PostgreSQL database current from this repository's records ref (a remote URL or a local path, or KEY=PATH to file a mirror under its origin); repeatable")
	}
	cmd.Flags().StringVar(&f.ref, "records-ref", "", "the records ref to read (default refs/sessiongate/records)")
	cmd.Flags().StringVar(&f.cacheDir, "index-cache", "", "folder of the index's bare mirrors (default the user cache folder's sessiongate/index)")
}

// indexer checks the settings and the store and returns a function that
// indexes every source once.
func (a *app) indexer(ctx context.Context, f *indexFlags) (func(context.Context, io.Writer) error, error) {
	var srcs []teamindex.Source
	for _, v := range f.sources {
		s, err := teamindex.ParseSource(v)
		if err != nil {
			return nil, usage(fmt.Errorf("--index %q: %w", v, err))
		}
		srcs = append(srcs, s)
	}
	db, err := a.store(ctx)
	if err != nil {
		return nil, err
	}
	st, ok := db.(teamindex.Store)
	if !ok {
		return nil, usage(errors.New("the team index needs a PostgreSQL database: pass --db postgres://... or set SESSIONGATE_DB"))
	}
	cache := f.cacheDir
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, usage(fmt.Errorf("no cache folder for the index's mirrors (%v): pass --index-cache", err))
		}
		cache = filepath.Join(dir, "sessiongate", "index")
	}
	opts := teamindex.Options{Ref: f.ref, CacheDir: cache}
	return func(ctx context.Context, w io.Writer) error {
		var failed []error
		for _, o := range teamindex.IndexAll(ctx, st, srcs, opts, 0) {
			s, res, err := o.Source, o.Result, o.Err
			if err != nil {
				failed = append(failed, err)
				fmt.Fprintf(w, "index %s: %v\n", s.Location, err)
				continue
			}
			fmt.Fprintf(w, "index %s (%s): %d imported, %d unchanged, %d skipped\n", s.Location, s.Key, res.Imported, res.Unchanged, len(res.Skipped))
			for _, p := range res.Skipped {
				fmt.Fprintf(w, "  skipped %s: %s\n", p.Record, p.Reason)
			}
		}
		return errors.Join(failed...)
	}, nil
}

func newIndexCmd(a *app) *cobra.Command {
	var f indexFlags
	cmd := &cobra.Command{
		Use:   "index SOURCE...",
		Short: "Bring the team database (--db postgres://...) up to date with repositories' records refs",
		Long: `Read each repository's records ref (a remote URL or a local path; KEY=PATH files a
local mirror under its origin, e.g. github.com/o/r=/srv/mirrors/r.git) and import the
session records committed since the last run into the PostgreSQL database --db names.
Only new records commits are read; a record already imported is not written again;
a record that does not parse, is too large, claims another repository or session, or
whose snapshot ids do not recompute is reported and skipped. Nothing from an indexed
repository runs: git only fetches its records ref into a mirror of sessiongate's own.
Exit 2 when a source could not be read (the others are still indexed).`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, sources []string) error {
			f.sources = sources
			run, err := a.indexer(c.Context(), &f)
			if err != nil {
				return err
			}
			if err := run(c.Context(), c.OutOrStdout()); err != nil {
				return usage(errors.New("some repositories could not be indexed (see above)"))
			}
			return nil
		},
	}
	f.add(cmd, false)
	return cmd
}

// indexLoop indexes every source now and then every interval until ctx ends.
func indexLoop(ctx context.Context, run func(context.Context, io.Writer) error, every time.Duration, logger *slog.Logger) {
	for {
		start := time.Now()
		w := &logWriter{logger: logger}
		if err := run(ctx, w); err != nil && ctx.Err() == nil {
			logger.Warn("team index", "error", err)
		}
		logger.Info("team index pass done", "took", time.Since(start).Round(time.Millisecond))
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

// logWriter turns the index's report lines into log lines.
type logWriter struct{ logger *slog.Logger }

func (l *logWriter) Write(p []byte) (int, error) {
	l.logger.Info(string(trimNL(p)))
	return len(p), nil
}

func trimNL(p []byte) []byte {
	for len(p) > 0 && (p[len(p)-1] == '\n' || p[len(p)-1] == '\r') {
		p = p[:len(p)-1]
	}
	return p
}
