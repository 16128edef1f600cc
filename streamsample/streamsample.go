package streamsample

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
)

// Body is evidence read from a stream: its hash and size over
// every byte, and a sample for the checks that read the text (claims that
// report a failure, padding, secrets): the whole body when it fits in
// the limit, else its first and last halves of that.
type Body struct {
	SHA256    string
	Size      int64
	Sample    string
	Truncated bool
}

// Read hashes r to its end, keeping at most limit bytes of it.
func Read(r io.Reader, limit int) (*Body, error) {
	h := sha256.New()
	half := limit / 2
	var head, tail []byte
	buf := make([]byte, 32<<10)
	var size int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			h.Write(chunk)
			size += int64(n)
			if room := limit - len(head); room > 0 {
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
	sb := &Body{SHA256: hex.EncodeToString(h.Sum(nil)), Size: size}
	if len(tail) == 0 {
		sb.Sample = string(head)
		return sb, nil
	}
	if len(tail) > half {
		tail = tail[len(tail)-half:]
	} else if len(tail) < half {
		// The body's last half starts inside head: a body just over the
		// limit kept only its bytes past the limit as its end.
		tail = append(append([]byte{}, head[len(head)-(half-len(tail)):]...), tail...)
	}
	sb.Truncated = true
	sb.Sample = string(head[:half]) + "\n…\n" + string(tail)
	return sb, nil
}
