package ancestry

import (
	"os"
	"os/exec"
	"testing"
)

// BenchmarkChain: what telling a person from an agent costs a hook that
// finds no session (the environment, then the ancestry walk), beside the
// cheapest process a hook could start instead (`true`), in one run:
//
//	go test -run '^$' -bench Chain -count 5 ./internal/ancestry
func BenchmarkChain(b *testing.B) {
	b.Run("env+ancestry", func(b *testing.B) {
		for b.Loop() {
			if _, _, ok := FromEnv(os.Getenv); !ok {
				Agent(Chain())
			}
		}
	})
	b.Run("peer=exec-true", func(b *testing.B) {
		bin, err := exec.LookPath("true")
		if err != nil {
			b.Skip("true not found")
		}
		for b.Loop() {
			if err := exec.Command(bin).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
