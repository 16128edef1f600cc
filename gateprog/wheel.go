package gateprog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// wheelInstalled reports a program pip or uv installed from a wheel:
// a package's dist-info RECORD in the same prefix (bin/ beside
// lib/python*/site-packages/) lists the file with its sha256. `pip install
// ruff` writes ~/.local/bin/ruff, a native binary no console-script
// template matches.
func wheelInstalled(real string) bool {
	prefix := filepath.Dir(filepath.Dir(real))
	records, _ := filepath.Glob(filepath.Join(prefix, "lib", "python*", "site-packages", "*.dist-info", "RECORD"))
	if len(records) == 0 || len(records) > 2000 {
		return false
	}
	var sum string
	for _, rec := range records {
		site := filepath.Dir(filepath.Dir(rec))
		rb, err := boundedread.File(rec, 16<<20)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(rb))
		for sc.Scan() {
			parts := strings.Split(sc.Text(), ",")
			if len(parts) < 2 || filepath.Base(parts[0]) != filepath.Base(real) {
				continue
			}
			if filepath.Clean(filepath.Join(site, parts[0])) != real {
				continue
			}
			if sum == "" {
				b, err := boundedread.File(real, maxProgram)
				if err != nil {
					return false
				}
				h := sha256.Sum256(b)
				sum = "sha256=" + base64.RawURLEncoding.EncodeToString(h[:])
			}
			if parts[1] == sum {
				return true
			}
		}
	}
	return false
}
