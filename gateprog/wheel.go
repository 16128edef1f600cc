package gateprog

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
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
		f, err := os.Open(rec)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			parts := strings.Split(sc.Text(), ",")
			if len(parts) < 2 || filepath.Base(parts[0]) != filepath.Base(real) {
				continue
			}
			if filepath.Clean(filepath.Join(site, parts[0])) != real {
				continue
			}
			if sum == "" {
				b, err := os.ReadFile(real)
				if err != nil {
					f.Close()
					return false
				}
				h := sha256.Sum256(b)
				sum = "sha256=" + base64.RawURLEncoding.EncodeToString(h[:])
			}
			if parts[1] == sum {
				f.Close()
				return true
			}
		}
		f.Close()
	}
	return false
}
