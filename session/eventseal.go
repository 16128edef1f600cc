package session

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The phase audit (phaseaudit.go) took any gate event as a gate that ran,
// and an agent with python's sqlite3 could INSERT one for a phase it never
// gated (issue 25 route 3). Each gate event the engine writes now carries
// a seal: HMAC-SHA256, under a per-database key in a file beside the
// database (event.key, 0600), over the session id, the token and the
// event's time. The audit counts only sealed gate events; a forged one is
// unsealed, so its phase is UNGATED_PHASE and its gate runs again at the
// end.
//
// Threat model, honestly: the agent runs as the same user as sessiongate,
// and on such a machine there is no place for a key that sessiongate can
// read and the agent's shell cannot (a file, the keyring, the database and
// a daemon's memory are all the user's). The seal stops the route that
// needs nothing but the database (an INSERT or a copied row), not an agent
// that reads the key and this code and computes seals; that one is left to
// what does not run on its machine: verify in CI re-runs the command gates
// (--rerun) and re-reads file evidence from git. Deleting the key makes
// every earlier seal fail (phases re-gated at the end, flagged), never pass.

// EventKeyName is the key file's name beside the database.
const EventKeyName = "event.key"

// eventSeal signs and checks gate events with one key file.
type eventSeal struct {
	path string
	once sync.Once
	key  []byte
	err  error
}

func newEventSeal(path string) *eventSeal { return &eventSeal{path: path} }

// load reads the key, creating it (32 random bytes, 0600) on first use.
func (s *eventSeal) load() ([]byte, error) {
	s.once.Do(func() {
		b, err := os.ReadFile(s.path)
		if errors.Is(err, fs.ErrNotExist) {
			b = make([]byte, 32)
			if _, err = rand.Read(b); err != nil {
				s.err = fmt.Errorf("make the gate event key: %w", err)
				return
			}
			var f *os.File
			if f, err = os.OpenFile(s.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
				_, err = f.Write(b)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if errors.Is(err, fs.ErrExist) { // another process made it first
				b, err = os.ReadFile(s.path)
			}
		}
		if err != nil {
			s.err = fmt.Errorf("read the gate event key %s: %w", filepath.Base(s.path), err)
			return
		}
		if len(b) < 32 {
			s.err = fmt.Errorf("gate event key %s is %d bytes, want 32: move it aside to make a new one (earlier gates are then re-checked at the end)", filepath.Base(s.path), len(b))
			return
		}
		s.key = b
	})
	return s.key, s.err
}

func (s *eventSeal) mac(key []byte, id, token string, at time.Time) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("sessiongate gate event v1\x00" + id + "\x00" + token + "\x00" + strconv.FormatInt(at.UTC().Unix(), 10)))
	return hex.EncodeToString(m.Sum(nil))
}

// sealDetail is a sealed event's detail.
type sealDetail struct {
	Seal string `json:"seal"`
}

// seal sets the detail of a gate event to its seal (other events as they are).
func (s *eventSeal) seal(ev *Event) error {
	if s == nil || !strings.HasPrefix(ev.Token, "gate:") {
		return nil
	}
	key, err := s.load()
	if err != nil {
		return err
	}
	b, _ := json.Marshal(sealDetail{Seal: s.mac(key, ev.SessionID, ev.Token, ev.CreatedAt)})
	ev.Detail = string(b)
	return nil
}

// sealed reports whether ev carries a good seal (true for every event when
// no key is configured: a store without a file, such as PostgreSQL).
func (s *eventSeal) sealed(ev Event) (bool, error) {
	if s == nil {
		return true, nil
	}
	key, err := s.load()
	if err != nil {
		return false, err
	}
	var d sealDetail
	if json.Unmarshal([]byte(ev.Detail), &d) != nil || d.Seal == "" {
		return false, nil
	}
	return hmac.Equal([]byte(d.Seal), []byte(s.mac(key, ev.SessionID, ev.Token, ev.CreatedAt))), nil
}

// storeSeal returns the seal for a store kept in a file (nil otherwise).
func storeSeal(st Store) *eventSeal {
	p, ok := st.(interface{ Path() string })
	if !ok || p.Path() == "" || strings.HasPrefix(p.Path(), ":memory:") {
		return nil
	}
	return newEventSeal(filepath.Join(filepath.Dir(p.Path()), EventKeyName))
}
