// Package cmdoutput reads what a command that exited 0 printed for proof
// that it checked something. It needs no session.
package cmdoutput
