// Package errclass says whose a failure is: the caller's (an invalid
// request), the protocol's (a refusal in the engine's own words) or
// sessiongate's own (internal), so the CLI, MCP and HTTP callers answer and
// log it right. It needs no session; session.Classify adds the engine's
// own sentinel errors to the two lists.
package errclass

import (
	"errors"
	"fmt"
	"slices"
)

// ErrInvalid marks a caller's mistake the engine found in a request (an
// unknown phase, an empty objective, a missing reason): errors.Is finds it
// under the message, which is the message alone.
var ErrInvalid = errors.New("invalid request")

// ErrRefused marks a valid request the protocol refuses in the engine's own
// words (skip_qa with code changes, ending a session still in its start
// protocol).
var ErrRefused = errors.New("refused")

// classError is an error with its own message and a class sentinel.
type classError struct {
	msg   string
	class error
}

func (e *classError) Error() string { return e.msg }
func (e *classError) Unwrap() error { return e.class }

// Refusedf is fmt.Errorf for a refusal (no %w).
func Refusedf(format string, args ...any) error {
	return &classError{msg: fmt.Sprintf(format, args...), class: ErrRefused}
}

// Invalidf is fmt.Errorf for a caller's mistake (no %w).
func Invalidf(format string, args ...any) error {
	return &classError{msg: fmt.Sprintf(format, args...), class: ErrInvalid}
}

// Class says whose a failure is.
type Class int

const (
	// Internal: sessiongate's own machinery failed (the database, the
	// disk, git): not the caller's doing. Callers log it at Error level
	// with the operation and the session, where an operator sees it.
	Internal Class = iota
	// Invalid: the request itself is wrong (a bad id, an unknown phase, a
	// path outside the repository); the caller fixes and retries.
	Invalid
	// Refused: a valid request the protocol refuses (an ended or expired
	// session, a sequence rule, force without grounds, a protected file
	// changed); the message says what to do.
	Refused
)

func (c Class) String() string {
	switch c {
	case Invalid:
		return "invalid"
	case Refused:
		return "refused"
	}
	return "internal"
}

// Of returns the class of err: Invalid when it is ErrInvalid or one of
// invalid, else Refused when it is ErrRefused or one of refused, else
// Internal (also for nil: callers classify failures only).
func Of(err error, invalid, refused []error) Class {
	if errors.Is(err, ErrInvalid) || slices.ContainsFunc(invalid, func(e error) bool { return errors.Is(err, e) }) {
		return Invalid
	}
	if errors.Is(err, ErrRefused) || slices.ContainsFunc(refused, func(e error) bool { return errors.Is(err, e) }) {
		return Refused
	}
	return Internal
}
