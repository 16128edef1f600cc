// Package gitalias resolves the git subcommand a shell line names as git
// itself does: an alias by its expansion, a command git does not know as
// unknown. It needs no session.
package gitalias
