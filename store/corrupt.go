package store

import "errors"

// SQLite result codes for a damaged file (the low byte of extended codes).
const (
	sqliteCorrupt = 11 // SQLITE_CORRUPT: "database disk image is malformed"
	sqliteNotADB  = 26 // SQLITE_NOTADB: "file is not a database"
)

// IsCorrupt reports whether err comes from SQLite finding the database
// file damaged or not a database at all, so callers can name the file and
// the way out instead of SQLite's code.
func IsCorrupt(err error) bool {
	var coded interface{ Code() int }
	if !errors.As(err, &coded) {
		return false
	}
	c := coded.Code() & 0xff
	return c == sqliteCorrupt || c == sqliteNotADB
}

// CorruptHint is the next step for a damaged database file at path.
func CorruptHint(path string) string {
	return "the database " + path + " is damaged. Move it aside (mv " + path + " " + path + ".damaged) and sessiongate starts a new one on its next run; sqlite3's .recover command can save what the old file still holds"
}
