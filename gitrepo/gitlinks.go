package gitrepo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/session"
)

// ChangedGitlinks lists the gitlinks HEAD adds or moves since start. A
// gitlink to a commit nobody can fetch hides code from every clone (CI
// checks out the superproject and fails on the submodule, or runs without
// it). Whether the URL serves the commit takes the network; offline, a
// remote-tracking ref of the submodule's own repository that holds it is
// the evidence there is.
func (r *Repo) ChangedGitlinks(ctx context.Context, start string) ([]session.Gitlink, error) {
	b, err := run(ctx, r.root, "diff-tree", "-r", "-z", "--no-renames", start, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("list changed gitlinks: %w", err)
	}
	var links []session.Gitlink
	parts := splitZ(b)
	for i := 0; i+1 < len(parts); i += 2 {
		// ":OLDMODE NEWMODE OLD NEW STATUS" then the path.
		f := strings.Fields(strings.TrimPrefix(parts[i], ":"))
		if len(f) != 5 || f[1] != "160000" || f[4] == "D" {
			continue
		}
		links = append(links, session.Gitlink{Path: parts[i+1], Commit: f[3]})
	}
	if len(links) == 0 {
		return nil, nil
	}
	names := map[string]string{} // path -> submodule name
	urls := map[string]string{}  // name -> url
	if out, err := run(ctx, r.root, "config", "--blob", "HEAD:.gitmodules", "-z", "--get-regexp", `^submodule\..*\.(path|url)$`); err == nil {
		for _, e := range splitZ(out) {
			k, v, _ := strings.Cut(e, "\n")
			k = strings.TrimPrefix(k, "submodule.")
			switch {
			case strings.HasSuffix(k, ".path"):
				names[v] = strings.TrimSuffix(k, ".path")
			case strings.HasSuffix(k, ".url"):
				urls[strings.TrimSuffix(k, ".url")] = v
			}
		}
	}
	for i := range links {
		l := &links[i]
		name, ok := names[l.Path]
		if !ok {
			continue
		}
		l.URL = urls[name]
		dir := filepath.Join(r.commonDir, "modules", filepath.FromSlash(name))
		if _, err := os.Stat(dir); err != nil {
			dir = filepath.Join(r.root, filepath.FromSlash(l.Path), ".git")
		}
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		if gitenv.Command(ctx, r.root, nil, "--git-dir", dir, "cat-file", "-e", l.Commit+"^{commit}").Run() == nil {
			l.Present = true
			out, err := gitenv.Command(ctx, r.root, nil, "--git-dir", dir, "for-each-ref", "--count=1", "--format=%(refname)", "--contains", l.Commit, "refs/remotes/").Output()
			l.Published = err == nil && strings.TrimSpace(string(out)) != ""
		}
	}
	return links, nil
}
