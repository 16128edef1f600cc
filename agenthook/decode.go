package agenthook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// decodeObject reads the event: one JSON object, nothing after it.
func decodeObject(raw []byte) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, errors.New("the event JSON on stdin is empty")
	}
	if raw[0] != '{' {
		return nil, errors.New("the event on stdin is not a JSON object")
	}
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("the event JSON on stdin is malformed at byte %d: %v", se.Offset, err)
		}
		return nil, fmt.Errorf("the event JSON on stdin is malformed: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("the event JSON on stdin has data after the object at byte %d", dec.InputOffset())
	}
	return m, nil
}
