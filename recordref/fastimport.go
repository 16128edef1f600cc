package recordref

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// errLostRace: another writer moved the ref while this one wrote.
var errLostRace = errors.New("the ref moved while writing")

// putFastImport writes bodies (path -> record bytes) onto ref in one commit
// on top of old with a single `git fast-import`, which reads only the trees
// on the records' paths and moves the ref only to a commit that contains
// its tip at that moment (else it refuses, and errLostRace is returned for
// Put to retry). Before writing it asks fast-import (`ls`) for each path's
// blob on old: when every record is already there with the same bytes it
// writes nothing and returns old. With Tip's rev-parse, two git processes
// per batch; the objects are the ones mktree and commit-tree wrote, so
// readers see the same format.
func putFastImport(ctx context.Context, dir, ref, old string, bodies map[string][]byte, msg string) (string, error) {
	// fastimport.unpackLimit=1 keeps the few new objects in the pack
	// fast-import wrote instead of starting `git unpack-objects` to make
	// them loose: one process less per write; gc --auto folds the small
	// packs as it does a fetch's.
	cmd := gitenv.Command(ctx, dir, nil, "-c", "core.hooksPath="+os.DevNull, "-c", "fastimport.unpackLimit=1",
		"fast-import", "--quiet", "--date-format=now")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start git fast-import: %w", err)
	}
	in := bufio.NewWriter(stdin)
	out := bufio.NewReader(stdout)
	fail := func(err error) (string, error) {
		stdin.Close()
		io.Copy(io.Discard, out)
		cmd.Wait()
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git fast-import: %w: %s", err, msg)
		}
		return "", fmt.Errorf("git fast-import: %w", err)
	}
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range bodies {
			if !yield(p) {
				return
			}
		}
	})
	if old != "" && !strings.ContainsAny(old, " \n") {
		same := true
		for _, p := range paths {
			fmt.Fprintf(in, "ls %s %s\n", old, p)
			if err := in.Flush(); err != nil {
				return fail(err)
			}
			line, err := out.ReadString('\n')
			if err != nil {
				return fail(fmt.Errorf("ls %s: %w", p, err))
			}
			// "100644 blob <oid>\t<path>" or "missing <path>"
			f := strings.Fields(line)
			if len(f) < 3 || f[1] != "blob" || f[2] != blobID(len(f[2]), bodies[p]) {
				same = false
				break
			}
		}
		if same {
			stdin.Close()
			io.Copy(io.Discard, out)
			if err := cmd.Wait(); err != nil {
				return fail(err)
			}
			return old, nil
		}
	}
	fmt.Fprintf(in, "commit %s\nmark :1\ncommitter sessiongate <sessiongate@invalid> now\ndata %d\n%s\n", ref, len(msg), msg)
	if old != "" {
		fmt.Fprintf(in, "from %s\n", old)
	}
	for _, p := range paths {
		fmt.Fprintf(in, "M 100644 inline %s\ndata %d\n", p, len(bodies[p]))
		in.Write(bodies[p])
		in.WriteString("\n")
	}
	in.WriteString("\nget-mark :1\n")
	if err := in.Flush(); err != nil {
		return fail(err)
	}
	line, err := out.ReadString('\n')
	if err != nil {
		return fail(fmt.Errorf("read the new commit: %w", err))
	}
	commit := strings.TrimSpace(line)
	stdin.Close()
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		// Lost to another writer: the tip no longer in the new commit
		// ("Not updating"), or the ref moved or locked between fast-import's
		// read and its locked update ("cannot lock ref"). Put retries both.
		if msg := stderr.String(); strings.Contains(msg, "Not updating") || strings.Contains(msg, "cannot lock ref") {
			return "", fmt.Errorf("%w: %s", errLostRace, strings.TrimSpace(stderr.String()))
		}
		return fail(err)
	}
	return commit, nil
}

// blobID is git's object id for content as a blob, in the hash whose hex
// length is n (40: SHA-1, 64: SHA-256).
func blobID(n int, content []byte) string {
	hdr := "blob " + strconv.Itoa(len(content)) + "\x00"
	if n == 64 {
		h := sha256.New()
		h.Write([]byte(hdr))
		h.Write(content)
		return hex.EncodeToString(h.Sum(nil))
	}
	h := sha1.New()
	h.Write([]byte(hdr))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}
