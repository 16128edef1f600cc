//go:build race

package protocolspec

// raceBuild: the test binary runs under the race detector.
const raceBuild = true
