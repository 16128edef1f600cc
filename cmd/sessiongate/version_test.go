package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionFrom: the release stamp wins, then the module version, then
// the commit; a build with none of them still says what it is, never a
// bare "dev".
func TestVersionFrom(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name  string
		stamp string
		bi    *debug.BuildInfo
		ok    bool
		want  string
	}{
		{"release stamp", "v0.1.0", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "v0.1.0"},
		{"go install @tag", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, true, "v0.2.0"},
		{"go install @commit", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128051900-0123456789ab"}}, true, "v0.0.0-20261128051900-0123456789ab"},
		{"local clean build", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123", "false")}, true, "devel-0123456789ab"},
		{"local dirty build", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123", "true")}, true, "devel-0123456789ab-dirty"},
		{"no vcs info", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true, "devel-unstamped (go1.26.8, built without a version stamp or VCS info)"},
		{"no build info", "", nil, false, "devel-unstamped (no build info)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := versionFrom(tt.stamp, tt.bi, tt.ok)
			if got != tt.want {
				t.Errorf("versionFrom = %q, want %q", got, tt.want)
			}
			if strings.TrimSpace(got) == "dev" {
				t.Errorf("bare dev")
			}
		})
	}
}
