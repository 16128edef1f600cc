package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

//go:embed starter/SESSION-PROTOCOL.md
var starterProtocol []byte

//go:embed starter/sessiongate.yaml
var starterConfig []byte

func newInitCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Write a starter SESSION-PROTOCOL.md and sessiongate.yaml at the repository root",
		Long: `Write a starter SESSION-PROTOCOL.md (start and end phases with gate annotations
that work on any repository) and a commented sessiongate.yaml. Existing files are
never overwritten.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			r, err := a.gitRepo(c.Context())
			if err != nil {
				return err
			}
			files := []struct {
				name string
				body []byte
			}{{"SESSION-PROTOCOL.md", starterProtocol}, {"sessiongate.yaml", starterConfig}}
			for _, f := range files {
				p := filepath.Join(r.Root(), f.name)
				if _, err := os.Stat(p); err == nil {
					return usage(fmt.Errorf("%s already exists: not overwriting it (remove it first to start over)", p))
				} else if !errors.Is(err, fs.ErrNotExist) {
					return usage(err)
				}
			}
			for _, f := range files {
				p := filepath.Join(r.Root(), f.name)
				// O_EXCL: never clobber a file created since the check above.
				fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
				if err != nil {
					return usage(fmt.Errorf("write %s: %w", p, err))
				}
				if _, err := fh.Write(f.body); err != nil {
					fh.Close()
					return usage(fmt.Errorf("write %s: %w", p, err))
				}
				if err := fh.Close(); err != nil {
					return usage(fmt.Errorf("write %s: %w", p, err))
				}
				fmt.Fprintln(c.OutOrStdout(), "wrote", p)
			}
			fmt.Fprintln(c.OutOrStdout(), "next: sessiongate protocol lint, then sessiongate install")
			return nil
		},
	}
}
