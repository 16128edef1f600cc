// Package compliance is the protocol compliance benchmark (issue 11): real
// git repositories built from the real ai-agents SESSION-PROTOCOL versions and
// the starter protocol, each driven through the real sessiongate binary by a
// scripted agent that is either compliant (does exactly what the document
// asks, one piece of evidence per thing done, never forces) or skips one
// thing the document demands. The test reports false passes (a non-compliant
// session reaching COMPLETE with a clean `sessiongate verify`) and false
// blocks (a compliant session blocked, forced or made to pad). The code is in
// the _test.go files: `go test ./bench/compliance -v`.
package compliance
