package gateprog

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// dpkgInfo is where dpkg keeps each package's file list and md5 sums.
var dpkgInfo = "/var/lib/dpkg/info"

// dpkgOwned reports a file a Debian package installed, as that package
// has it (`apt-get install -y cargo` during a session writes
// /usr/bin/cargo): dpkg-query names the package and its md5sums file
// holds the file's sum. Asked only of a program changed after the start.
func dpkgOwned(real string) bool {
	if _, err := os.Stat(dpkgInfo); err != nil {
		return false
	}
	out, err := exec.Command("dpkg-query", "-S", real).Output()
	if err != nil {
		return false
	}
	pkgs, _, ok := strings.Cut(strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]), ": ")
	if !ok {
		return false
	}
	b, err := boundedread.File(real, maxProgram)
	if err != nil {
		return false
	}
	sum := md5.Sum(b)
	want := hex.EncodeToString(sum[:])
	rel := strings.TrimPrefix(real, "/")
	for _, pkg := range strings.Split(pkgs, ", ") {
		for _, f := range []string{pkg + ".md5sums", pkg + ":" + archOf(pkg) + ".md5sums"} {
			if md5Listed(filepath.Join(dpkgInfo, f), rel, want) {
				return true
			}
		}
	}
	return false
}

func archOf(pkg string) string {
	if _, a, ok := strings.Cut(pkg, ":"); ok {
		return a
	}
	out, err := exec.Command("dpkg", "--print-architecture").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func md5Listed(file, rel, want string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, path, ok := strings.Cut(sc.Text(), "  ")
		if ok && path == rel {
			return sum == want
		}
	}
	return false
}
