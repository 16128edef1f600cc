package layouttest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// unboundedReads are the product's os.ReadFile and os.Open calls left as
// they are, by file, each with why its path is not one the agent writes
// for a gate, hook, verify or MCP call to read (pass 29). Every other
// read goes through internal/boundedread: a FIFO as the handoff hung
// `session evidence` and `session advance` (TestAdv29WorkFileReads).
var unboundedReads = map[string]struct {
	n   int
	why string
}{
	"cmd/sessiongate/mcp_cmd.go":         {1, "--token-file: a path the person starting the MCP server names"},
	"conversation/conversation.go":       {2, "sessiongate's own state folder, written by sessiongate"},
	"eventseal/eventseal.go":             {2, "the seal key sessiongate creates 0600 in its state folder"},
	"gateprog/dpkg.go":                   {1, "/var/lib/dpkg/info: root's"},
	"gitrepo/index_map_other.go":         {1, "the index on systems without mmap (not unix); unix reads it bounded"},
	"godepchange/toolchain.go":           {6, "the Go toolchain's caches (GOPATH sumdb, GOMODCACHE) and sessiongate's MAC'd cache file, outside the work tree"},
	"hooks/codextrust.go":                {1, "install/doctor, run by a person: not a gate or hook path"},
	"hooks/doctor.go":                    {2, "doctor, run by a person"},
	"hooks/git.go":                       {1, "install, run by a person"},
	"hooks/install.go":                   {2, "install, run by a person"},
	"hooks/mcpconfig.go":                 {2, "install, run by a person"},
	"hooks/agentconfig.go":               {3, "install/doctor, run by a person"},
	"hooks/txn.go":                       {2, "install's undo copies, run by a person"},
	"internal/agenttest/claudestream.go": {1, "test helper"},
	"internal/agenttest/openai.go":       {1, "test helper"},
	"internal/npmtest/npmtest.go":        {1, "test helper"},
	"internal/pgtest/pgtest.go":          {1, "test helper"},
	"internal/release/main.go":           {2, "release tooling, run by a maintainer"},
	"internal/sqlitetest/sqlitetest.go":  {1, "test helper"},
	"internal/testbin/testbin.go":        {1, "test helper"},
	"internal/testshare/testshare.go":    {1, "test helper"},
	"selfbinary/selfbinary.go":           {2, "sessiongate's own executable"},
	"store/readonly.go":                  {1, "sessiongate's database file"},
	"userconfig/userconfig.go":           {2, "the person's config in their home folder, named by sessiongate, not the repository"},
}

// TestReadsOfAgentFilesBounded: product code (not tests, not bench/) calls
// os.ReadFile or os.Open only where unboundedReads says why; a new call
// fails here. Route a work-tree, .git, venv or transcript path through
// internal/boundedread (InRoot, File, Open), or add the file with why its
// path is not the agent's.
func TestReadsOfAgentFilesBounded(t *testing.T) {
	root := filepath.Join("..", "..")
	got := map[string]int{}
	where := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if rel != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "bench" || rel == "internal/boundedread") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "os" && (sel.Sel.Name == "ReadFile" || sel.Sel.Name == "Open") {
				got[rel]++
				where[rel] = append(where[rel], fset.Position(call.Pos()).String())
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 5 {
		t.Fatalf("found reads in %d files: is the test reading the repository?", len(got))
	}
	for f, n := range got {
		if n > unboundedReads[f].n {
			t.Errorf("%s calls os.ReadFile/os.Open %d times (%d allowed): %s\nread a path the agent can write through internal/boundedread (InRoot, File, Open), or add it to unboundedReads with why it is not the agent's",
				f, n, unboundedReads[f].n, strings.Join(where[f], ", "))
		}
	}
	for f, a := range unboundedReads {
		if got[f] < a.n {
			t.Errorf("%s: %d unbounded reads allowed, %d left: lower unboundedReads", f, a.n, got[f])
		}
	}
}
