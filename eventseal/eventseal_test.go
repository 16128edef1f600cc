package eventseal

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

type pathStore string

func (p pathStore) Path() string { return string(p) }

func TestSignAndCheck(t *testing.T) {
	dir := t.TempDir()
	s := ForStore(pathStore(filepath.Join(dir, "db.sqlite")))
	if s == nil {
		t.Fatal("ForStore of a file store = nil")
	}
	at := time.Unix(1700000000, 0)
	var detail string
	if err := s.Sign("sid", "gate:PLAN", at, &detail); err != nil || detail == "" {
		t.Fatalf("Sign = %v, detail %q", err, detail)
	}
	if st, err := os.Stat(filepath.Join(dir, KeyName)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st, err)
	}
	other := "unchanged"
	if err := s.Sign("sid", "start", at, &other); err != nil || other != "unchanged" {
		t.Fatalf("Sign of a non-gate event changed its detail to %q (%v)", other, err)
	}
	cases := []struct {
		name, id, token string
		at              time.Time
		detail          string
		want            bool
	}{
		{"the sealed event", "sid", "gate:PLAN", at, detail, true},
		{"another session", "sid2", "gate:PLAN", at, detail, false},
		{"another phase", "sid", "gate:QA", at, detail, false},
		{"another time", "sid", "gate:PLAN", at.Add(time.Second), detail, false},
		{"inserted without a seal", "sid", "gate:PLAN", at, "", false},
		{"a made-up seal", "sid", "gate:PLAN", at, `{"seal":"00"}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ok, err := s.Sealed(c.id, c.token, c.at, c.detail)
			if err != nil || ok != c.want {
				t.Fatalf("Sealed = %v, %v; want %v", ok, err, c.want)
			}
		})
	}
	// A second seal on the same key file (another process) agrees.
	if ok, err := New(filepath.Join(dir, KeyName)).Sealed("sid", "gate:PLAN", at, detail); !ok || err != nil {
		t.Fatalf("a second Seal over the same key: %v, %v", ok, err)
	}
}

func TestNoKey(t *testing.T) {
	for _, st := range []any{nil, pathStore(""), pathStore(":memory:"), struct{}{}} {
		if s := ForStore(st); s != nil {
			t.Fatalf("ForStore(%v) = %v, want nil", st, s)
		}
	}
	var s *Seal
	if ok, err := s.Sealed("sid", "gate:PLAN", time.Now(), ""); !ok || err != nil {
		t.Fatalf("nil Seal: %v, %v; want every event sealed", ok, err)
	}
	short := filepath.Join(t.TempDir(), KeyName)
	if err := os.WriteFile(short, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(short).Sealed("sid", "gate:PLAN", time.Now(), ""); err == nil {
		t.Fatal("a short key file was accepted")
	}
}
