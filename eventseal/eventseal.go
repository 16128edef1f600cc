// Package eventseal signs the gate events the engine writes and checks
// them when the phase audit reads them back: HMAC-SHA256 under a key file
// beside the database. It needs no session or store (an event is its
// session id, token, time and detail), so the key handling and the MAC are
// read and tested on their own; session/ decides which events count.
package eventseal

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

// The phase audit (session/phaseaudit.go) took any gate event as a gate that ran,
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

// KeyName is the key file's name beside the database.
const KeyName = "event.key"

// Seal signs and checks gate events with one key file. A nil *Seal (a
// store without a file) seals nothing and takes every event as sealed.
type Seal struct {
	path string
	once sync.Once
	key  []byte
	err  error
}

// New returns the seal whose key is the file at path.
func New(path string) *Seal { return &Seal{path: path} }

// load reads the key, creating it (32 random bytes, 0600) on first use.
func (s *Seal) load() ([]byte, error) {
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

func (s *Seal) mac(key []byte, id, token string, at time.Time) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("sessiongate gate event v1\x00" + id + "\x00" + token + "\x00" + strconv.FormatInt(at.UTC().Unix(), 10)))
	return hex.EncodeToString(m.Sum(nil))
}

// sealDetail is a sealed event's detail.
type sealDetail struct {
	Seal string `json:"seal"`
}

// Sign sets *detail of the event (session id, token, time) to its seal
// when it is a gate event ("gate:" token); other events keep theirs.
func (s *Seal) Sign(id, token string, at time.Time, detail *string) error {
	if s == nil || !strings.HasPrefix(token, "gate:") {
		return nil
	}
	key, err := s.load()
	if err != nil {
		return err
	}
	b, _ := json.Marshal(sealDetail{Seal: s.mac(key, id, token, at)})
	*detail = string(b)
	return nil
}

// Sealed reports whether the event's detail carries a good seal (true for
// every event when no key is configured: a store without a file, such as
// PostgreSQL).
func (s *Seal) Sealed(id, token string, at time.Time, detail string) (bool, error) {
	if s == nil {
		return true, nil
	}
	key, err := s.load()
	if err != nil {
		return false, err
	}
	var d sealDetail
	if json.Unmarshal([]byte(detail), &d) != nil || d.Seal == "" {
		return false, nil
	}
	return hmac.Equal([]byte(d.Seal), []byte(s.mac(key, id, token, at))), nil
}

// ForStore returns the seal for a store kept in a file (one with a Path
// method that names a file), nil otherwise.
func ForStore(st any) *Seal {
	p, ok := st.(interface{ Path() string })
	if !ok || p.Path() == "" || strings.HasPrefix(p.Path(), ":memory:") {
		return nil
	}
	return New(filepath.Join(filepath.Dir(p.Path()), KeyName))
}

// MAC seals text that is not a gate event (a cached verdict the engine
// reads back, such as godepchange's proven toolchains) under the same
// key, in a domain of its own so no gate event's seal serves as one.
func (s *Seal) MAC(text string) (string, error) {
	key, err := s.load()
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("sessiongate verdict v1\x00" + text))
	return hex.EncodeToString(m.Sum(nil)), nil
}

// Beside is the path of the file name in the key's folder (the
// database's).
func (s *Seal) Beside(name string) string { return filepath.Join(filepath.Dir(s.path), name) }
