// Package builtinlint is the built-in Quality Checks gate's linter: the
// line it runs, the baseline configuration it writes, and whether the
// linter it runs is the project's own. It needs no session.
package builtinlint
