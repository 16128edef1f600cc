package session

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
)

// streamedBody is evidence read from a stream: its hash and size over
// every byte, and a sample for the checks that read the text (claims that
// report a failure, padding, secrets): the whole body when it fits in
// MaxEvidenceBytes, else its first and last halves of that.
type streamedBody struct {
	sha256    string
	size      int64
	sample    string
	truncated bool
}

// readStream hashes r to its end, keeping at most MaxEvidenceBytes of it.
func readStream(r io.Reader) (*streamedBody, error) {
	h := sha256.New()
	half := MaxEvidenceBytes / 2
	var head, tail []byte
	buf := make([]byte, 32<<10)
	var size int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			h.Write(chunk)
			size += int64(n)
			if room := MaxEvidenceBytes - len(head); room > 0 {
				take := min(room, len(chunk))
				head = append(head, chunk[:take]...)
				chunk = chunk[take:]
			}
			if len(chunk) > 0 {
				tail = append(tail, chunk...)
				if len(tail) > 2*half {
					tail = append(tail[:0], tail[len(tail)-half:]...)
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read the evidence: %w", err)
		}
	}
	sb := &streamedBody{sha256: hex.EncodeToString(h.Sum(nil)), size: size}
	if len(tail) == 0 {
		sb.sample = string(head)
		return sb, nil
	}
	if len(tail) > half {
		tail = tail[len(tail)-half:]
	}
	sb.truncated = true
	sb.sample = string(head[:half]) + "\n…\n" + string(tail)
	return sb, nil
}
