package slowsuite

import (
	"context"
	"errors"
	"strings"
	"testing"
)

const (
	treeA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	treeB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// trees is a work tree at now; diffs lists, by "from to", the files two
// trees differ in; reads counts WorkTreeTree's calls.
type trees struct {
	now   string
	diffs map[string][]string
	reads int
	err   error
}

func (t *trees) WorkTreeTree(context.Context) (string, error) { t.reads++; return t.now, t.err }
func (t *trees) TreeDiff(_ context.Context, from, to string) ([]string, error) {
	return t.diffs[from+" "+to], nil
}

func isDoc(f string) bool { return strings.HasSuffix(f, ".md") }

// TestPick: the gate takes the newest passing run of its own line (or sh
// -c of it) that saw the work tree as it is, documentation aside; another
// line, a run with no tree, and a tree with code changed since do not.
func TestPick(t *testing.T) {
	const line = "go test ./..."
	for _, tt := range []struct {
		name  string
		runs  []Run
		diffs map[string][]string
		want  int
		reads int
	}{
		{"its line on this tree", []Run{{line, "run" + Tag(treeA)}}, nil, 0, 1},
		{"sh -c of its line", []Run{{"sh -c 'go test ./...'", "run" + Tag(treeA) + ", saw tree x"}}, nil, 0, 1},
		{"bash -c of its line", []Run{{"bash -c 'go test ./...'", "run" + Tag(treeA)}}, nil, 0, 1},
		{"another line", []Run{{"go test ./session", "run" + Tag(treeA)}}, nil, -1, 0},
		{"no tree recorded", []Run{{line, "run, saw tree " + treeA}}, nil, -1, 0},
		{"a handoff written since", []Run{{line, "run" + Tag(treeB)}}, map[string][]string{treeB + " " + treeA: {"HANDOFF.md"}}, 0, 1},
		{"code changed since", []Run{{line, "run" + Tag(treeB)}}, map[string][]string{treeB + " " + treeA: {"HANDOFF.md", "main.go"}}, -1, 1},
		{"newest first, tree read once", []Run{{line, "run" + Tag(treeB)}, {line, "run" + Tag(treeA)}}, map[string][]string{treeB + " " + treeA: {"main.go"}}, 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := &trees{now: treeA, diffs: tt.diffs}
			got, err := Pick(context.Background(), tt.runs, line, tr, isDoc)
			if err != nil || got != tt.want || tr.reads != tt.reads {
				t.Errorf("Pick = %d, %v (tree read %d times), want %d (%d)", got, err, tr.reads, tt.want, tt.reads)
			}
		})
	}
	if _, err := Pick(context.Background(), []Run{{line, Tag(treeA)}}, line, &trees{err: errors.New("no git")}, isDoc); err == nil {
		t.Error("a tree that could not be read passed")
	}
}

func TestSameGateLine(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		gate string
		want bool
	}{
		{[]string{"go", "test", "./..."}, "go test ./...", true},
		{[]string{"sh", "-c", "go test ./..."}, " go test ./... ", true},
		{[]string{"bash", "-c", "go test ./..."}, "go test ./...", true},
		{[]string{"zsh", "-c", "go test ./..."}, "go test ./...", false},
		{[]string{"go", "test", "./session"}, "go test ./...", false},
		{[]string{"true"}, "", false},
	} {
		if got := SameGateLine(strings.Join(tt.argv, " "), tt.argv, tt.gate); got != tt.want {
			t.Errorf("SameGateLine(%q, %q) = %v", tt.argv, tt.gate, got)
		}
	}
}

func TestTagTreeOf(t *testing.T) {
	if got := TreeOf("exit 0" + Tag(treeA) + ", on branch x"); got != treeA {
		t.Errorf("TreeOf = %q", got)
	}
	if got := TreeOf("exit 0, saw tree " + treeA); got != "" {
		t.Errorf("TreeOf of a run that was not the gate's command = %q", got)
	}
}
