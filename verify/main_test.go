package verify_test

import (
	"os"
	"testing"

	"github.com/sessiongate/sessiongate/internal/testshare"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

// TestMain gives the package's tests a temp folder of their own, removed
// at the end; a leak fails CI (tmpleak): the tests run real git, go test
// and shell scripts that may call mktemp.
func TestMain(m *testing.M) {
	testshare.Apply()
	os.Exit(tmpleak.Run(m.Run))
}
