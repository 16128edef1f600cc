// Package streamsample reads a stream of evidence to its end: its hash
// and size over every byte and a bounded sample of its text. It needs no
// session.
package streamsample
