// Package shellline reads one shell command line the way an agent's shell
// tool would run it, without running it: which programs it runs (Calls,
// Keys), which files it writes (Writes), whether its exit status is a given
// command's own (ExitIsOwn), and whether it proves nothing (Trivial,
// QueryOnly), takes the git hooks away (GitBypass, Unhooks,
// RunsAgentHook) or pushes past CI (SkipsCI). It needs no session, store or repository, so the agent
// hook (run once per tool call) and the transcript readers use it as well
// as the session engine.
//
// Only words the shell would not expand count (Literal): a line is judged
// by what it says, never by running any part of it.
package shellline
