package mcpserver_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The MCP server is the SDK and the engine: no HTTP framework, template
// engine or CLI library, so `sessiongate mcp` and embedders do not carry
// the dashboard's stack and the layering cannot erode unnoticed.
func TestNoFrameworkImports(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not found: the import check needs the go command")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/labstack/echo", "github.com/a-h/templ", "github.com/spf13/cobra"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("server/mcpserver depends on %s", dep)
			}
		}
	}
}
