#!/bin/bash
# interleaved: release (linux/amd64, warm cache) vs plain static go build, 3 rounds
cd "${1:-.}"
for i in 1 2 3; do
  s=$(date +%s.%N); go run ./internal/release -targets linux/amd64 -dist "${TMPDIR:-/tmp}/sg-release-dist" v0.1.0 >/dev/null 2>&1; e=$(date +%s.%N)
  r=$(echo "$e - $s" | bc)
  s=$(date +%s.%N); env CGO_ENABLED=0 GOFLAGS= go build -trimpath -o "${TMPDIR:-/tmp}/sg-plain" ./cmd/sessiongate; e=$(date +%s.%N)
  p=$(echo "$e - $s" | bc)
  echo "round $i release=${r}s plain=${p}s load=$(cut -d' ' -f1 /proc/loadavg)"
done
