package gateprog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Pass 29 (c3): venvtrust judged a work-tree venv's program and package
// by change time alone, so an honest `pip install -U pytest` during the
// session (a new console script, every file of the package written
// again) refused the run the fix was tested with. These read the same
// RECORD proof the gate's rules use (recordWhy).

// DistributionWhy judges the installed distribution in site whose RECORD
// lists module mod: listed are the files its RECORD names (absolute,
// cleaned; nil when no RECORD lists mod), why says how it changed since
// the start other than by an installer ("" when it did not).
func DistributionWhy(site, mod string, since time.Time) (listed map[string]bool, why string) {
	di, rec := distOf(site, mod)
	if di == "" {
		return nil, ""
	}
	return recordPaths(site, rec), recordWhy(site, di, rec, since)
}

// ProgramWhy judges a program in a venv's bin/ by the RECORD that lists
// it with its sha256 (pip's console script is listed as
// ../../../bin/pytest): ok when one does and its distribution is as its
// installer wrote it.
func ProgramWhy(prog string, since time.Time) (ok bool, why string) {
	prefix := filepath.Dir(filepath.Dir(prog))
	records, _ := filepath.Glob(filepath.Join(prefix, "lib", "python*", "site-packages", "*.dist-info", "RECORD"))
	if len(records) > 2000 {
		return false, ""
	}
	b, err := boundedread.File(prog, maxProgram)
	if err != nil {
		return false, ""
	}
	h := sha256.Sum256(b)
	sum := "sha256=" + base64.RawURLEncoding.EncodeToString(h[:])
	for _, r := range records {
		site := filepath.Dir(filepath.Dir(r))
		rb, err := boundedread.File(r, 16<<20)
		if err != nil {
			continue
		}
		var lines []string
		hit := false
		sc := bufio.NewScanner(bytes.NewReader(rb))
		for sc.Scan() {
			l := sc.Text()
			lines = append(lines, l)
			f := strings.Split(l, ",")
			if len(f) >= 2 && f[1] == sum && filepath.Clean(filepath.Join(site, filepath.FromSlash(f[0]))) == filepath.Clean(prog) {
				hit = true
			}
		}
		if hit {
			return true, recordWhy(site, filepath.Dir(r), lines, since)
		}
	}
	return false, ""
}

func recordPaths(site string, rec []string) map[string]bool {
	out := map[string]bool{}
	for _, l := range rec {
		if f := strings.Split(strings.TrimSpace(l), ","); len(f) >= 2 && f[0] != "" {
			out[filepath.Clean(filepath.Join(site, filepath.FromSlash(f[0])))] = true
		}
	}
	return out
}
