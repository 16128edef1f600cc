package cmdoutput

import (
	"os"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

// TestMain gives the package's tests a temp folder of their own, removed
// at the end; a leak fails CI (tmpleak): the tests run the real pytest.
func TestMain(m *testing.M) {
	os.Exit(tmpleak.Run(m.Run))
}
