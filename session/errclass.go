package session

import (
	"errors"
	"fmt"

	"github.com/sessiongate/sessiongate/policy"
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

// refusedf is fmt.Errorf for a refusal (no %w).
func refusedf(format string, args ...any) error {
	return &classError{msg: fmt.Sprintf(format, args...), class: ErrRefused}
}

// invalidf is fmt.Errorf for a caller's mistake (no %w).
func invalidf(format string, args ...any) error {
	return &classError{msg: fmt.Sprintf(format, args...), class: ErrInvalid}
}

// ErrorClass says whose a failure is, so callers answer and log it right.
type ErrorClass int

const (
	// ClassInternal: sessiongate's own machinery failed (the database, the
	// disk, git): not the caller's doing. Callers log it at Error level
	// with the operation and the session, where an operator sees it.
	ClassInternal ErrorClass = iota
	// ClassInvalid: the request itself is wrong (a bad id, an unknown
	// phase, a path outside the repository); the caller fixes and retries.
	ClassInvalid
	// ClassRefused: a valid request the protocol refuses (an ended or
	// expired session, a sequence rule, force without grounds, a protected
	// file changed); the message says what to do.
	ClassRefused
)

func (c ErrorClass) String() string {
	switch c {
	case ClassInvalid:
		return "invalid"
	case ClassRefused:
		return "refused"
	}
	return "internal"
}

// Classify returns the class of an engine error; nil is not classified
// (ClassInternal is returned only for a non-nil error).
func Classify(err error) ErrorClass {
	for _, e := range []error{ErrInvalid, ErrInvalidID, ErrNotFound, ErrOutsideRepo, ErrAmbiguousID, ErrAgentSession} {
		if errors.Is(err, e) {
			return ClassInvalid
		}
	}
	for _, e := range []error{ErrRefused, ErrExpired, ErrTerminated, ErrEnded, ErrForceRefused, ErrProtectedChanged, ErrCannotRun, policy.ErrBlocked} {
		if errors.Is(err, e) {
			return ClassRefused
		}
	}
	return ClassInternal
}
