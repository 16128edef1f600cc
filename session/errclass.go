package session

import (
	"github.com/sessiongate/sessiongate/errclass"
	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/repopath"
)

// The classes and the two class sentinels are package errclass's (it
// needs no session); the engine's names for them stay, and Classify adds
// the engine's own sentinel errors.

// ErrInvalid marks a caller's mistake the engine found in a request.
var ErrInvalid = errclass.ErrInvalid

// ErrRefused marks a valid request the protocol refuses in the engine's
// own words.
var ErrRefused = errclass.ErrRefused

// refusedf is fmt.Errorf for a refusal (no %w).
func refusedf(format string, args ...any) error { return errclass.Refusedf(format, args...) }

// invalidf is fmt.Errorf for a caller's mistake (no %w).
func invalidf(format string, args ...any) error { return errclass.Invalidf(format, args...) }

// ErrorClass says whose a failure is, so callers answer and log it right.
type ErrorClass = errclass.Class

// The classes (see errclass).
const (
	ClassInternal = errclass.Internal
	ClassInvalid  = errclass.Invalid
	ClassRefused  = errclass.Refused
)

// Classify returns the class of an engine error; nil is not classified
// (ClassInternal is returned only for a non-nil error).
func Classify(err error) ErrorClass {
	return errclass.Of(err,
		[]error{ErrInvalidID, ErrNotFound, repopath.ErrOutsideRepo, ErrAmbiguousID, ErrAgentSession},
		[]error{ErrExpired, ErrTerminated, ErrEnded, ErrForceRefused, ErrProtectedChanged, ErrCannotRun, policy.ErrBlocked})
}
