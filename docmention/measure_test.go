package docmention

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMeasureRepos measures the condition on real history: for the last N
// non-merge commits of each git directory in DOCMENTION_REPOS (a list
// separated by the OS path separator), how often a commit that changed no
// markdown would fail a docs gate bound by it (the false-FAIL candidates),
// and how often a commit that did change markdown also touched a documented
// name. It is a measurement, not a check: it logs, and skips without
// DOCMENTION_REPOS.
func TestMeasureRepos(t *testing.T) {
	repos := os.Getenv("DOCMENTION_REPOS")
	if repos == "" {
		t.Skip("DOCMENTION_REPOS not set: nothing to measure")
	}
	n := 200
	if v, err := strconv.Atoi(os.Getenv("DOCMENTION_N")); err == nil && v > 0 {
		n = v
	}
	for _, dir := range filepath.SplitList(repos) {
		git := func(args ...string) string {
			out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).Output()
			if err != nil {
				t.Fatalf("git %v in %s: %v", args, dir, err)
			}
			return string(out)
		}
		shas := strings.Fields(git("log", "--no-merges", "--format=%H", "-n", strconv.Itoa(n)))
		blobs := map[string][]byte{}
		var codeOnly, codeHold, withMD, mdHold int
		var examples []string
		for _, sha := range shas {
			var changes []Change
			md := false
			for _, l := range strings.Split(strings.TrimSpace(git("diff-tree", "--no-commit-id", "-r", "--name-status", "--no-renames", "--root", sha)), "\n") {
				st, p, ok := strings.Cut(l, "\t")
				if !ok {
					continue
				}
				if strings.EqualFold(filepath.Ext(p), ".md") {
					md = true
					continue
				}
				c := Change{Path: p, Deleted: st == "D"}
				if !IgnoredPath(p) {
					diff := git("diff", "--no-color", "--no-ext-diff", "--text", "--no-renames", "-U0", sha+"^!", "--", p)
					for _, dl := range strings.Split(diff, "\n") {
						switch {
						case strings.HasPrefix(dl, "+++"), strings.HasPrefix(dl, "---"):
						case strings.HasPrefix(dl, "+"):
							c.Added = append(c.Added, dl[1:])
						case strings.HasPrefix(dl, "-"):
							c.Removed = append(c.Removed, dl[1:])
						}
					}
				}
				changes = append(changes, c)
			}
			if len(changes) == 0 {
				continue // docs only
			}
			var docs []Doc
			for _, l := range strings.Split(git("ls-tree", "-r", sha+"^"), "\n") {
				meta, p, ok := strings.Cut(l, "\t")
				if f := strings.Fields(meta); ok && len(f) == 3 && IsDoc(p) {
					if _, ok := blobs[f[2]]; !ok {
						blobs[f[2]] = []byte(git("cat-file", "blob", f[2]))
					}
					docs = append(docs, Doc{Path: p, Body: blobs[f[2]]})
				}
			}
			h, hold := Find(changes, docs)
			if md {
				withMD++
				if hold {
					mdHold++
				}
				continue
			}
			codeOnly++
			if hold {
				codeHold++
				if len(examples) < 8 {
					examples = append(examples, sha[:9]+": "+h.String())
				}
			}
		}
		t.Logf("%s: %d commits; code-only %d, condition holds on %d (%.1f%%: gate FAILs them); with markdown %d, condition holds on %d",
			dir, len(shas), codeOnly, codeHold, pct(codeHold, codeOnly), withMD, mdHold)
		for _, e := range examples {
			t.Logf("  %s", e)
		}
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
