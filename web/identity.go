package web

import "github.com/sessiongate/sessiongate/session"

// RunBy is who ran a session as git writes an author: "Name <email>", or
// whichever of the two is known; "" when neither is.
func RunBy(s *session.Session) string {
	switch {
	case s.UserName != "" && s.UserEmail != "":
		return s.UserName + " <" + s.UserEmail + ">"
	case s.UserEmail != "":
		return s.UserEmail
	}
	return s.UserName
}
