package gitalias_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitalias"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestLoadAndResolve: the aliases and commands come from the real git of a
// repository; an alias is judged by its expansion, a `!` alias by its shell
// line, a command git does not know as unknown, and git's own command wins
// over an alias of its name.
func TestLoadAndResolve(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Config(t, dir, "alias.pick", "cherry-pick")
	gittest.Config(t, dir, "alias.St", "status --short")
	gittest.Config(t, dir, "alias.sh", "!git status && make")
	gittest.Config(t, dir, "alias.log1", "!git log -1")
	gittest.Config(t, dir, "alias.commit", "status")
	gc := gitalias.Load(context.Background(), dir)
	if gc.Aliases["pick"] != "cherry-pick" || gc.Aliases["st"] != "status --short" {
		t.Fatalf("aliases read from git: %v", gc.Aliases)
	}
	if !gc.Known["commit"] || !gc.Known["cherry-pick"] {
		t.Fatalf("git's own commands not known: %d known", len(gc.Known))
	}
	// writes stands in for the line judge: a line naming cherry-pick writes.
	writes := func(line string, _ *gitalias.GitCommands, _ int) string {
		if strings.Contains(line, "cherry-pick") {
			return "cherry-pick"
		}
		return ""
	}
	tests := []struct {
		sub      string
		resolved bool
		write    string // a part of the judgement; "" for none
	}{
		{"pick", true, "alias pick = cherry-pick (cherry-pick)"},
		{"ST", true, ""},
		{"sh", true, "a shell alias"},
		{"log1", true, ""},
		{"commit", false, ""}, // git's own command, not the alias
		{"x", true, "unknown git command x"},
	}
	for _, tt := range tests {
		t.Run(tt.sub, func(t *testing.T) {
			w, resolved := gc.Resolve(tt.sub, []string{"HEAD"}, 0, writes)
			if resolved != tt.resolved || (tt.write == "") != (w == "") || !strings.Contains(w, tt.write) {
				t.Errorf("Resolve(%q) = %q, %v; want %q, %v", tt.sub, w, resolved, tt.write, tt.resolved)
			}
		})
	}
	var none *gitalias.GitCommands
	if w, resolved := none.Resolve("pick", nil, 0, writes); w != "" || resolved {
		t.Errorf("nil GitCommands resolved %q, %v", w, resolved)
	}
}
