// Package plaintext checks free text a caller stores and sessiongate
// later prints: it needs no session.
package plaintext
