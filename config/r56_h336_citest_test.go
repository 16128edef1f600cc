package config

import (
	"path/filepath"
	"testing"
)

// TestR56H336GitLabReferenceCd (helper 336's review of the extends fix):
// GitLab's `!reference [.web, before_script]` brings a hidden job's `cd
// web` into the test job as extends does; init still takes web/'s npm test
// as the root's QA command (which then fails at the root).
func TestR56H336GitLabReferenceCd(t *testing.T) {
	for name, tc := range map[string]struct{ file, wf string }{
		"gitlab !reference before_script": {".gitlab-ci.yml", ".web:\n  before_script:\n    - cd web\n\ntest:\n  before_script:\n    - !reference [.web, before_script]\n  script:\n    - npm test\n"},
		"gitlab !reference in script":     {".gitlab-ci.yml", ".web:\n  script:\n    - cd web\n\ntest:\n  script:\n    - !reference [.web, script]\n    - npm test\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := h332Detect(t, tc.file, tc.wf); got.Command == "npm test" {
				t.Errorf("DetectTestCommand = %q (from %q): web/'s command taken for the root", got.Command, got.From)
			}
		})
	}
}

// TestR56H336GitLabExtendsOverridden: GitLab's extends merges maps but a
// job's own before_script replaces the inherited list: this job runs go
// test at the root, yet extendsSubfolder reads .web's `cd web` as the job's.
func TestR56H336GitLabExtendsOverridden(t *testing.T) {
	for _, wf := range []string{
		".web:\n  before_script:\n    - cd web\n\ntest:\n  extends: .web\n  before_script:\n    - echo root\n  script:\n    - go test ./...\n",
		// through a chain: the job's own key wins over every level
		".web:\n  before_script:\n    - cd web\n.node:\n  extends: .web\n\ntest:\n  extends: .node\n  before_script:\n    - echo root\n  script:\n    - go test ./...\n",
	} {
		if got := h332Detect(t, ".gitlab-ci.yml", wf); got.Command != "go test ./..." || filepath.Base(got.From) == "go.mod" {
			t.Errorf("DetectTestCommand = %q (from %q): want the CI's root line go test ./...", got.Command, got.From)
		}
	}
}
