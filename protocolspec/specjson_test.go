package protocolspec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestUnmarshalSpecMatchesEncodingJSON: every document's cached spec
// decodes to what encoding/json decodes it to.
func TestUnmarshalSpecMatchesEncodingJSON(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		filepath.Join("..", "..", "shared", "fixtures", "*", "SESSION-PROTOCOL*.md"),
		filepath.Join("testdata", "*.md"),
		filepath.Join("testdata", "*", "*.md"),
		filepath.Join("..", "cmd", "sessiongate", "starter", "*.md"),
	} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no protocol documents")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := Parse(f, data)
		b, err := json.Marshal(spec)
		if err != nil {
			t.Fatal(err)
		}
		var want Spec
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := UnmarshalSpec(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: UnmarshalSpec differs from encoding/json", f)
		}
	}
	if _, err := UnmarshalSpec([]byte(`{"phases": 3}`)); err == nil {
		t.Error("a phases list given as a number was accepted")
	}
}
