package session

import (
	"reflect"
	"testing"
)

func TestExitIsOwn(t *testing.T) {
	const key = "go test"
	tests := []struct {
		line string
		own  bool
	}{
		{"go test ./...", true},
		{"go test -count=1 ./...", true},
		{"cd api && go test ./...", true},
		{"go vet ./... && go test ./...", true},
		{"go test ./... && echo done", true},
		{"GOFLAGS=-mod=mod go test ./...", true},
		{"(cd api && go test ./...)", true},
		{"go test ./... | tail -5", false},
		{"go test ./... 2>&1 | tee out.txt", false},
		{"set -o pipefail; go test ./... | tail -5", true},
		{"set -euo pipefail\ngo test ./... | tail -5", true},
		{"go test ./... || true", false},
		{"true || go test ./...", false},
		{"go test ./...; echo done", false},
		{"echo start; go test ./...", true},
		{"! go test ./...", false},
		{"go test ./... &", false},
		{"for p in a b; do go test ./$p; done", false},
		{"if go test ./...; then echo ok; fi", false},
		{"npm test", false},
		{"timeout 300 go test ./...", true},
		{"timeout 300 go test ./... | tail", false},
		{"go test ./... 'unterminated", false},
	}
	for _, tc := range tests {
		if got := exitIsOwn(tc.line, key); got != tc.own {
			t.Errorf("exitIsOwn(%q) = %v, want %v", tc.line, got, tc.own)
		}
	}
}

func TestCommandKeys(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"go test ./...", []string{"go test"}},
		{"cd web && npm test -- --ci", []string{"cd web", "npm test"}},
		{"FOO=1 go test ./... | tail -3", []string{"go test", "tail"}},
		{"echo 'unterminated", []string{"echo 'unterminated"}}, // not shell: the first two words
		{"timeout 300 go test ./...", []string{"go test"}},
		{"env -u HOME GOFLAGS=-mod=mod time -p nice -n 5 go test ./...", []string{"go test"}},
		{"timeout -k 5 60s npm test", []string{"npm test"}},
	}
	for _, tc := range tests {
		if got := commandKeys(tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("commandKeys(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
