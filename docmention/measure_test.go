package docmention

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestMeasureRepos measures the condition on real history: for the last N
// non-merge commits of each git directory in DOCMENTION_REPOS (a list
// separated by the OS path separator), how often a commit that changed no
// markdown would fail a docs gate bound by it (the false-FAIL candidates),
// and how often a commit that did change markdown also touched a documented
// name. For those, it also says how many a docs gate would now refuse
// because no changed doc that names a touched name addresses it (Addressed):
// honest commits blocked, each listed. DOCMENTION_GLOB (default *.md) is
// the gate's glob: only docs it matches are read. It is a measurement, not
// a check: it logs, and skips without DOCMENTION_REPOS.
func TestMeasureRepos(t *testing.T) {
	repos := os.Getenv("DOCMENTION_REPOS")
	if repos == "" {
		t.Skip("DOCMENTION_REPOS not set: nothing to measure")
	}
	n := 200
	if v, err := strconv.Atoi(os.Getenv("DOCMENTION_N")); err == nil && v > 0 {
		n = v
	}
	glob := os.Getenv("DOCMENTION_GLOB")
	if glob == "" {
		glob = "*.md"
	}
	for _, dir := range filepath.SplitList(repos) {
		git := func(args ...string) string {
			out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).Output()
			if err != nil {
				t.Fatalf("git %v in %s: %v", args, dir, err)
			}
			return string(out)
		}
		soft := func(args ...string) string { // "" when git fails (a file the parent lacks)
			out, _ := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).Output()
			return string(out)
		}
		shas := strings.Fields(git("log", "--no-merges", "--format=%H", "-n", strconv.Itoa(n)))
		blobs := map[string][]byte{}
		var codeOnly, codeHold, withMD, mdHold, mdBlocked int
		var examples, blocked []string
		for _, sha := range shas {
			var changes []Change
			md := false
			var mdFiles, deletedDocs, deletedFiles []string
			for _, l := range strings.Split(strings.TrimSpace(git("diff-tree", "--no-commit-id", "-r", "--name-status", "--no-renames", "--root", sha)), "\n") {
				st, p, ok := strings.Cut(l, "\t")
				if !ok {
					continue
				}
				if DocFormat(p) {
					md = md || matchGlob(glob, p)
					if st != "D" {
						mdFiles = append(mdFiles, p)
					} else {
						deletedDocs = append(deletedDocs, p)
					}
					continue
				}
				if st == "D" {
					deletedFiles = append(deletedFiles, p)
				}
				c := Change{Path: p, Deleted: st == "D"}
				if !IgnoredPath(p) {
					diff := git("diff", "--no-color", "--no-ext-diff", "--text", "--no-renames", "-U0", sha+"^!", "--", p)
					if strings.HasSuffix(p, ".go") {
						// Both sides whole: the package is judged on its source.
						if st != "D" {
							c.Body = git("cat-file", "blob", sha+":"+p)
						}
						if st != "A" {
							c.Before = soft("cat-file", "blob", sha+"^:"+p)
						}
						c.Whole = true
					}
					if strings.HasSuffix(p, ".py") {
						// Its docstrings are no code (pyCode).
						if st != "D" {
							c.Body = git("cat-file", "blob", sha+":"+p)
						}
						if st != "A" {
							c.Before = soft("cat-file", "blob", sha+"^:"+p)
						}
					}
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
				if f := strings.Fields(meta); ok && len(f) == 3 && IsDoc(p) && matchGlob(glob, p) {
					if _, ok := blobs[f[2]]; !ok {
						blobs[f[2]] = []byte(git("cat-file", "blob", f[2]))
					}
					docs = append(docs, Doc{Path: p, Body: blobs[f[2]]})
				}
			}
			// The Go files of the changed packages the commit did not change.
			unchanged := map[string]string{}
			dirs := map[string]bool{}
			changedSet := map[string]bool{}
			for _, c := range changes {
				changedSet[c.Path] = true
				if goSource(c.Path) {
					dirs[filepath.Dir(c.Path)] = true
				}
			}
			for d := range dirs {
				for _, l := range strings.Split(soft("ls-tree", sha, d+"/"), "\n") {
					meta, p, ok := strings.Cut(l, "\t")
					if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" && goSource(p) && !changedSet[p] {
						unchanged[p] = git("cat-file", "blob", f[2])
					}
				}
			}
			touched := Touched(changes, unchanged)
			hits := FindTouched(touched, docs)
			hold := len(hits) > 0
			var h Hit
			if hold {
				h = hits[0]
			}
			if md {
				withMD++
				if hold {
					mdHold++
					if why := unaddressed(git, soft, sha, hits, docs, mdFiles, DeletedAnswers(hits, deletedDocs, deletedFiles)); why != "" {
						mdBlocked++
						blocked = append(blocked, sha[:9]+": "+why)
					}
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
		t.Logf("%s: %d commits; code-only %d, condition holds on %d (%.1f%%: gate FAILs them); with docs matching %s %d, condition holds on %d, of which the changed docs do not address a touched name on %d",
			dir, len(shas), codeOnly, codeHold, pct(codeHold, codeOnly), glob, withMD, mdHold, mdBlocked)
		for _, e := range examples {
			t.Logf("  %s", e)
		}
		for _, e := range blocked {
			t.Logf("  blocked %s", e)
		}
	}
}

func matchGlob(glob, p string) bool {
	if !strings.Contains(glob, "/") {
		p = filepath.Base(p)
	}
	ok, _ := filepath.Match(glob, p)
	return ok
}

// unaddressed says which touched, documented name no changed doc addresses
// ("" when each is), as the session's docs gate judges it.
func unaddressed(git, soft func(...string) string, sha string, hits []Hit, docs []Doc, changed []string, gone map[string]bool) string {
	seen := map[string]bool{}
	var missing []string
	for _, h := range hits {
		k := h.Kind + " " + h.Text
		if seen[k] {
			continue
		}
		seen[k] = true
		ok := gone[k]
		for _, d := range changed {
			if CanAnswer(d) && !IsDoc(d) {
				before := []byte(soft("cat-file", "blob", sha+"^:"+d))
				if Mentions(h.Name, d, before) && Addressed(h.Name, d, before, []byte(git("cat-file", "blob", sha+":"+d))) {
					ok = true
					break
				}
			}
		}
		for _, h2 := range hits {
			if ok || h2.Kind+" "+h2.Text != k || !slices.Contains(changed, h2.Doc) {
				continue
			}
			var before []byte
			for _, d := range docs {
				if d.Path == h2.Doc {
					before = d.Body
				}
			}
			if Addressed(h2.Name, h2.Doc, before, []byte(git("cat-file", "blob", sha+":"+h2.Doc))) {
				ok = true
				break
			}
		}
		if !ok {
			var in []string
			for _, h2 := range hits {
				if h2.Kind+" "+h2.Text == k && !slices.Contains(in, h2.Doc) {
					in = append(in, h2.Doc)
				}
			}
			missing = append(missing, k+" (changed in "+h.File+") named in "+short(in)+"; changed docs: "+short(changed))
		}
	}
	return strings.Join(missing, "; ")
}

func short(l []string) string {
	if len(l) > 4 {
		return strings.Join(l[:4], ", ") + fmt.Sprintf(" and %d more", len(l)-4)
	}
	return strings.Join(l, ", ")
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
