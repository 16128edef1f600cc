package transcript

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// bigTranscript writes the real Claude transcript repeated to about size
// bytes (tool call ids made unique), and returns its path.
func bigTranscript(b *testing.B, size int) string {
	b.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "claude-2.1.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for i := 0; buf.Len() < size; i++ {
		buf.Write(bytes.ReplaceAll(src, []byte(`"toolu_`), []byte(`"toolu_`+strconv.Itoa(i)+"_")))
	}
	path := filepath.Join(b.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkTailFirst reads a 10 MB transcript from its start: what the
// first gate check after a long stretch of work pays.
func BenchmarkTailFirst(b *testing.B) {
	path := bigTranscript(b, 10<<20)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	for b.Loop() {
		if _, _, err := Tail(context.Background(), path, Claude, NewState(0), 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTailAgain reads a 10 MB transcript already read: the prefix is
// hashed again (the append-only check) and nothing new is parsed.
func BenchmarkTailAgain(b *testing.B) {
	path := bigTranscript(b, 10<<20)
	_, st, err := Tail(context.Background(), path, Claude, NewState(0), 0)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Offset)
	for b.Loop() {
		if _, _, err := Tail(context.Background(), path, Claude, st, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck is the check every hook event that names a transcript
// pays (a few lstat calls to resolve symlinks); nothing is read.
func BenchmarkCheck(b *testing.B) {
	home := b.TempDir()
	wt := b.TempDir()
	p := filepath.Join(home, ".claude", "projects", "-repo", "s.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	for b.Loop() {
		if _, err := Check(Claude, p, getenv, wt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTailAgainLong is TailAgain past FullVerify (24 MB): only the
// last VerifyWindow bytes are hashed again.
func BenchmarkTailAgainLong(b *testing.B) {
	path := bigTranscript(b, 24<<20)
	_, st, err := Tail(context.Background(), path, Claude, NewState(0), 0)
	if err != nil {
		b.Fatal(err)
	}
	if st.Offset-st.Start <= FullVerify || st.WindowSHA256 == "" {
		b.Fatalf("read %d bytes, want past FullVerify with a window hash", st.Offset)
	}
	for b.Loop() {
		if _, _, err := Tail(context.Background(), path, Claude, st, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSealExtend is the agent hook's part of a transcript seal: a
// 40 MiB transcript that gained one 4 KiB line since the last event; only
// the line is hashed (round 23).
func BenchmarkSealExtend(b *testing.B) {
	path := filepath.Join(b.TempDir(), "s.jsonl")
	line := append(bytes.Repeat([]byte("x"), 4095), '\n')
	if err := os.WriteFile(path, bytes.Repeat(line, 40<<20/len(line)), 0o600); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(path)
	st := NewState(fi.Size())
	for b.Loop() {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		f.Write(line)
		f.Close()
		s, ok, err := Extend(path, st)
		if err != nil || !ok {
			b.Fatalf("extend: %v %v", ok, err)
		}
		st.Seal = s
	}
}
