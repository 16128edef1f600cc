// Command logcorpus measures logfacts.Foreign on a real team's session
// logs: each log judged against the tree of the commit that added it and
// its parent (honest: a flag is a false FAIL), and against a small
// repository of a few files (a log copied in from elsewhere: a flag is a
// catch). docs/security.md (round 64) reports its figures on
// rjmurillo/ai-agents:
//
//	go run ./bench/logcorpus -repo PATH [-protocol FILE] [-glob '.agents/sessions/*.md']
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/sessiongate/sessiongate/logfacts"
)

func main() {
	repo := flag.String("repo", "", "a clone of the team's repository (full history)")
	glob := flag.String("glob", ".agents/sessions/*.md", "the session logs, as a git pathspec")
	protocolFile := flag.String("protocol", "", "the protocol a copied log is judged under (its paths are every log's)")
	flag.Parse()
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "logcorpus: -repo is required")
		os.Exit(2)
	}
	var protocol []byte
	if *protocolFile != "" {
		b, err := os.ReadFile(*protocolFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "logcorpus: read the protocol:", err)
			os.Exit(2)
		}
		protocol = b
	}
	if err := run(*repo, *glob, protocol); err != nil {
		fmt.Fprintln(os.Stderr, "logcorpus:", err)
		os.Exit(2)
	}
}

// small is the lazy agent's repository of the bench's greet flows.
var small = map[string]bool{"scripts/greet.sh": true, "scripts/test.sh": true, "README.md": true,
	"SESSION-PROTOCOL.md": true, ".agents/HANDOFF.md": true, ".agents/sessions/.gitkeep": true}

func run(repo, glob string, protocol []byte) error {
	out, err := git(repo, "log", "--diff-filter=A", "--format=C %H", "--name-only", "--", glob)
	if err != nil {
		return err
	}
	trees := map[string]map[string]bool{}
	tree := func(rev string) map[string]bool {
		if t, ok := trees[rev]; ok {
			return t
		}
		t := map[string]bool{}
		if o, err := git(repo, "ls-tree", "-r", "--name-only", rev); err == nil {
			for _, f := range strings.Split(o, "\n") {
				if f != "" {
					t[f] = true
				}
			}
		}
		trees[rev] = t
		return t
	}
	inSmall := logfacts.PathSet(small)
	var logs, judged, honestFlagged, copiedFlagged int
	commit := ""
	for _, l := range strings.Split(out, "\n") {
		if c, ok := strings.CutPrefix(l, "C "); ok {
			commit = c
			continue
		}
		if l == "" || commit == "" {
			continue
		}
		text, err := git(repo, "show", commit+":"+l)
		if err != nil {
			return err
		}
		logs++
		if p, _ := logfacts.Paths([]byte(text)); len(p) >= 3 {
			judged++
		}
		files := map[string]bool{}
		for f := range tree(commit) {
			files[f] = true
		}
		for f := range tree(commit + "^") {
			files[f] = true
		}
		if _, absent, ok := logfacts.Foreign([]byte(text), nil, logfacts.PathSet(files)); ok {
			honestFlagged++
			fmt.Printf("honest flagged: %s at %.10s (%s)\n", l, commit, strings.Join(absent, ", "))
		}
		if _, _, ok := logfacts.Foreign([]byte(text), protocol, inSmall); ok {
			copiedFlagged++
		}
	}
	fmt.Printf("logs %d, naming 3 or more paths %d; honest flagged %d; copied into a small repository flagged %d\n", logs, judged, honestFlagged, copiedFlagged)
	return nil
}

func git(repo string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}
