// Package delegate reads a requirement to hand work to a sub-agent:
// which sub-agent it names and whether Claude Code knows that name in a
// work tree. It needs no session.
package delegate
