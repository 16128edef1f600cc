package testrun

import "github.com/BurntSushi/toml"

// readTOML reads a TOML file (mise.toml, pixi.toml) into nested maps. A
// file TOML cannot read yields no tables, so no task is found there and
// the runner, which parses as strictly, finds none either.
func readTOML(b []byte) map[string]any {
	m := map[string]any{}
	if _, err := toml.Decode(string(b), &m); err != nil {
		return map[string]any{}
	}
	return m
}
