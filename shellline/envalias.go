package shellline

import "strings"

// envAlias reports whether a git call gets an alias through git's
// environment config: GIT_CONFIG_KEY_n=alias.NAME (with GIT_CONFIG_COUNT),
// GIT_CONFIG_PARAMETERS naming alias.NAME, or --config-env alias.NAME=VAR
// before the subcommand. git reads these; the hook's alias lookup runs in
// its own environment and never sees them, so what the alias runs cannot
// be judged (round 20 review: `GIT_CONFIG_KEY_0=alias.q
// GIT_CONFIG_VALUE_0='reset --hard' git q REV` was allowed). vars are the
// line's assignments so far (the call's own and exported ones).
func envAlias(vars map[string]string, w []string) bool {
	for k, v := range vars {
		v = strings.ToLower(v)
		switch {
		case strings.HasPrefix(k, "GIT_CONFIG_KEY_") && strings.HasPrefix(strings.TrimSpace(v), "alias."):
			return true
		case k == "GIT_CONFIG_PARAMETERS" && strings.Contains(v, "alias."):
			return true
		}
	}
	for k := 1; k < len(w) && strings.HasPrefix(w[k], "-"); k++ {
		a := strings.ToLower(w[k])
		if strings.HasPrefix(a, "--config-env=alias.") || a == "--config-env" && k+1 < len(w) && strings.HasPrefix(strings.ToLower(w[k+1]), "alias.") {
			return true
		}
	}
	return false
}
