package recordref

import (
	"context"
	"encoding/json"
	"fmt"
)

// SchemaFloor is where a record schema first appears on a records ref: a
// record written after that point by the same tool is of that schema or
// newer, so an older schema there is a downgrade (issue 25 route 2: a v2
// record rewritten as v1 with its file_refs dropped, to skip the file
// re-check).
type SchemaFloor struct {
	// Found: some record on the ref carried the schema.
	Found bool
	// First is the change that first wrote a record of the schema.
	First Change
	// StartCommit is that record's session start commit ("" when none).
	StartCommit string
	// firstAt is the index of First among the ref's changes; addedAt, per
	// session, the index of the change that first wrote its record.
	firstAt int
	addedAt map[string]int
}

// WrittenSince reports whether session id's record was first written on
// the ref at or after the floor (its own first version included).
func (f *SchemaFloor) WrittenSince(id string) bool {
	if f == nil || !f.Found {
		return false
	}
	i, ok := f.addedAt[id]
	return ok && i >= f.firstAt
}

// floorBatch is how many record bodies one cat-file reads while looking.
const floorBatch = 64

// FindSchemaFloor walks the ref's history at tip, oldest first, to the
// first record whose schema field is schema. It reads bodies only until
// that one: on a ref whose records all carry it, one batch.
func FindSchemaFloor(ctx context.Context, dir, tip, schema string) (*SchemaFloor, error) {
	return findFloor(ctx, dir, tip, schema, func(h *floorHead) bool { return h.Schema == schema })
}

// floorHead is what a floor reads of a record body.
type floorHead struct {
	Schema       string `json:"schema"`
	ClockVersion int    `json:"clock_version"`
	// ContinuesVersion: FindContinuesFloor.
	ContinuesVersion int `json:"continues_version"`
	Session          *struct {
		StartCommit string `json:"start_commit"`
	} `json:"session"`
}

// findFloor walks the ref oldest first to the first record that is
// accepts; what names the floor in errors.
func findFloor(ctx context.Context, dir, tip, what string, is func(*floorHead) bool) (*SchemaFloor, error) {
	schema := what
	f := &SchemaFloor{addedAt: map[string]int{}}
	if tip == "" {
		return f, nil
	}
	chs, err := Changes(ctx, dir, "", tip)
	if err != nil {
		return nil, fmt.Errorf("find the first %s record: %w", schema, err)
	}
	var recs []int
	for i, c := range chs {
		if c.SessionID == "" {
			continue
		}
		if _, ok := f.addedAt[c.SessionID]; !ok {
			f.addedAt[c.SessionID] = i
		}
		recs = append(recs, i)
	}
	for len(recs) > 0 && !f.Found {
		n := min(floorBatch, len(recs))
		batch := recs[:n]
		recs = recs[n:]
		var blobs []string
		for _, i := range batch {
			blobs = append(blobs, chs[i].Blob)
		}
		bodies, err := catBatch(ctx, dir, blobs)
		if err != nil {
			return nil, fmt.Errorf("find the first %s record: %w", schema, err)
		}
		for _, i := range batch {
			var head floorHead
			if json.Unmarshal(bodies[chs[i].Blob], &head) != nil || !is(&head) {
				continue
			}
			f.Found, f.First, f.firstAt = true, chs[i], i
			if head.Session != nil {
				f.StartCommit = head.Session.StartCommit
			}
			break
		}
	}
	return f, nil
}
