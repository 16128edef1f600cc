package shellline

import "mvdan.cc/sh/v3/syntax"

// WrapperAssigns are the plain assignments on the shell wrappers Unwrap
// peels off line (`X=1 sh -c "Y=2 bash -c 'go test'"`: X=1 and Y=2),
// outermost first. They are in the environment of every command of the
// script, but Unwrap drops them with the wrapper: `GREET_SKIP=1 sh -c
// 'go test ./...'` and `PATH=/tmp/fake:$PATH sh -c 'go test ./...'` read
// as a bare `go test ./...` (round 18 review).
func WrapperAssigns(line string) []*syntax.Assign {
	inner := Unwrap(line)
	var out []*syntax.Assign
	for i := 0; i < 3 && line != inner; i++ { // Unwrap goes 3 deep at most
		calls, _, ok := Calls(line)
		if !ok || len(calls) != 1 || len(calls[0].Words) < 3 {
			return out
		}
		for _, a := range calls[0].Node.Assigns {
			if a.Name != nil && !a.Append && a.Index == nil {
				out = append(out, a)
			}
		}
		line = calls[0].Words[2]
	}
	return out
}
