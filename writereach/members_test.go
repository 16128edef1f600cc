package writereach

import (
	"archive/tar"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessiongate/sessiongate/shellline"
)

// tarBytes is a tar archive holding the named files.
func tarBytes(t *testing.T, names ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// compressed runs prog (bzip2, xz, zstd) over b; it skips the test when
// prog is missing (fails under CI=true).
func compressed(t *testing.T, prog string, b []byte) []byte {
	t.Helper()
	if _, err := exec.LookPath(prog); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required under CI=true: %v", prog, err)
		}
		t.Skipf("%s not found", prog)
	}
	cmd := exec.Command(prog, "-c")
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", prog, err)
	}
	return out
}

// TestMembersRound19: bzip2 tars are read, --strip-components applied;
// xz, zstd, --transform and an archive the line makes are unknown; a
// missing one the line does not make writes nothing.
func TestMembersRound19(t *testing.T) {
	dir := t.TempDir()
	plain := tarBytes(t, "proj/SESSION-PROTOCOL.md", "proj/src/a.go", "top.txt")
	for name, b := range map[string][]byte{
		"a.tar":     plain,
		"a.tar.bz2": compressed(t, "bzip2", plain),
		"a.tar.xz":  compressed(t, "xz", plain),
		"a.tar.zst": compressed(t, "zstd", plain),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		u       shellline.Unpack
		want    []string
		unknown bool
	}{
		{shellline.Unpack{Kind: "tar", File: "a.tar.bz2"}, []string{"proj/SESSION-PROTOCOL.md", "proj/src/a.go", "top.txt"}, false},
		{shellline.Unpack{Kind: "tar", File: "a.tar", Strip: 1}, []string{"SESSION-PROTOCOL.md", "src/a.go"}, false},
		{shellline.Unpack{Kind: "tar", File: "a.tar.bz2", Strip: 2}, []string{"a.go"}, false},
		{shellline.Unpack{Kind: "tar", File: "a.tar.xz"}, nil, true},
		{shellline.Unpack{Kind: "tar", File: "a.tar.zst"}, nil, true},
		{shellline.Unpack{Kind: "tar", File: "a.tar", Renamed: true}, nil, true},
		{shellline.Unpack{Kind: "tar", File: "missing.tar.xz"}, nil, false}, // tar fails
		{shellline.Unpack{Kind: "tar", File: "missing.tar.xz", Made: true}, nil, true},
	} {
		ps, unknown := Members(dir, c.u)
		var rel []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			rel = append(rel, filepath.ToSlash(r))
		}
		if unknown != c.unknown || !reflect.DeepEqual(rel, c.want) {
			t.Errorf("%+v: got %v unknown %v, want %v unknown %v", c.u, rel, unknown, c.want, c.unknown)
		}
	}
}
