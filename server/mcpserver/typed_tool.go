package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
)

// addTool registers a typed tool as mcp.AddTool does (the same inferred
// input and output schemas in tools/list, the same input validation and
// error results, structuredContent from Out) except that it does not
// validate the output against the output schema on every call.
//
// Why: Out is one of our Go structs and the output schema is inferred from
// that same struct, so the check can only fail on a bug in our code, yet
// it cost about 60 µs per validate_gate call (unmarshal into maps, walk the
// schema, marshal again): more than the rest of the MCP layer's tool work.
// The tests check every structured result against the advertised schema
// instead (mcpCall in mcp_helpers_test.go), and the TypeScript SDK client
// in the npm tests validates it too.
//
// Schemas are resolved once here, at registration; New runs once
// per process, so the SDK's SchemaCache (meant for a server built per
// request) would save nothing.
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, *Out, error)) {
	tt := *t
	in, err := newToolInput[In](&tt)
	if err != nil {
		panic(fmt.Sprintf("tool %q: input schema: %v", t.Name, err))
	}
	if tt.OutputSchema == nil {
		s, err := jsonschema.For[Out](nil)
		if err != nil {
			panic(fmt.Sprintf("tool %q: output schema: %v", t.Name, err))
		}
		tt.OutputSchema = s
	}
	call := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := in.decode(req.Params.Arguments)
		if err != nil {
			var res mcp.CallToolResult
			res.SetError(err)
			return &res, nil
		}
		res, out, err := h(ctx, req, args)
		if err != nil {
			// As the SDK does: a JSON-RPC error stays one, any other error
			// is a tool result with isError.
			if wire, ok := err.(*jsonrpc.Error); ok {
				return nil, wire
			}
			var res mcp.CallToolResult
			res.SetError(err)
			return &res, nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		if res.InputRequests != nil {
			return res, nil
		}
		if out == nil {
			out = new(Out) // the zero object, never JSON null
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		res.StructuredContent = json.RawMessage(b)
		if res.Content == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
		}
		return res, nil
	}
	// On a worker whose stack has already grown (workers.go).
	srv.AddTool(&tt, func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		toolWorkers.run(func() { res, err = call(ctx, req) })
		return res, err
	})
}

// toolInput validates and decodes one tool's arguments exactly as the SDK's
// mcp.AddTool does: the arguments as a JSON object (map) validated against
// the resolved input schema (unknown properties, required properties,
// types, enums), then decoded into In with case-sensitive field names.
//
// It skips the SDK's defaults step, and the re-marshal that step forces,
// when the schema has no defaults: there is then nothing to apply, and In's
// fields are strings and bools, which decode the same from the original
// bytes as from the re-marshaled map.
type toolInput[In any] struct {
	resolved    *jsonschema.Resolved
	hasDefaults bool
	// flat, when the schema is an object of string and boolean properties
	// and nothing more, answers "valid" without the schema walk (about
	// 10 µs of every validate_gate call, a twentieth of the peer's whole
	// call). Anything it does not pass goes through Validate, so every
	// refusal and its message are the SDK's (TestFlatSchemaAgreesWithValidate).
	flat *flatSchema
}

// flatSchema is an object schema whose properties each have one type,
// string or boolean, and no other keyword: what validate_gate's, and most
// tools', inputs are.
type flatSchema struct {
	props    map[string]string // property -> "string" or "boolean"
	required []string
	closed   bool // additionalProperties: false
}

// newFlatSchema returns s as a flatSchema, nil when s holds anything else.
// It reads the schema as it is sent (its JSON), so a keyword this reader
// does not know is never skipped.
func newFlatSchema(s *jsonschema.Schema) *flatSchema {
	b, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return nil
	}
	f := &flatSchema{props: map[string]string{}}
	for k, v := range top {
		switch k {
		case "description", "title":
		case "type":
			if string(v) != `"object"` {
				return nil
			}
		case "additionalProperties":
			if string(v) != "false" {
				return nil
			}
			f.closed = true
		case "required":
			if json.Unmarshal(v, &f.required) != nil {
				return nil
			}
		case "properties":
			var props map[string]map[string]json.RawMessage
			if json.Unmarshal(v, &props) != nil {
				return nil
			}
			for name, p := range props {
				for pk, pv := range p {
					switch pk {
					case "description", "title":
					case "type":
						switch string(pv) {
						case `"string"`:
							f.props[name] = "string"
						case `"boolean"`:
							f.props[name] = "boolean"
						default:
							return nil
						}
					default:
						return nil
					}
				}
				if f.props[name] == "" {
					return nil // no type: anything passes, which this reader does not model
				}
			}
		default:
			return nil
		}
	}
	if _, ok := top["type"]; !ok || !f.closed {
		return nil
	}
	for _, r := range f.required {
		if f.props[r] == "" {
			return nil
		}
	}
	return f
}

// valid reports whether m certainly passes the schema; false sends it to
// the full validation, which words the refusal.
func (f *flatSchema) valid(m map[string]any) bool {
	for k, v := range m {
		switch f.props[k] {
		case "string":
			if _, ok := v.(string); !ok {
				return false
			}
		case "boolean":
			if _, ok := v.(bool); !ok {
				return false
			}
		default:
			return false // not a property of a closed schema
		}
	}
	for _, r := range f.required {
		if _, ok := m[r]; !ok {
			return false
		}
	}
	return true
}

// newToolInput infers the input schema from In unless t has one (as the SDK
// does), stores it in t for tools/list, and resolves it once.
func newToolInput[In any](t *mcp.Tool) (*toolInput[In], error) {
	if t.InputSchema == nil {
		s, err := jsonschema.For[In](nil)
		if err != nil {
			return nil, err
		}
		t.InputSchema = s
	}
	s, ok := t.InputSchema.(*jsonschema.Schema)
	if !ok {
		return nil, fmt.Errorf("input schema is a %T, want *jsonschema.Schema", t.InputSchema)
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, err
	}
	return &toolInput[In]{resolved: rs, hasDefaults: schemaHasDefaults(s), flat: newFlatSchema(s)}, nil
}

// decode returns the arguments as In, or an error worded as the SDK's.
// The SDK has already checked the nesting depth of the whole message.
func (p *toolInput[In]) decode(raw json.RawMessage) (In, error) {
	var in In
	m := map[string]any{}
	var v any = m
	if len(raw) > 0 {
		if err := unmarshalStrict(raw, &m); err != nil {
			return in, fmt.Errorf("validating \"arguments\": unmarshaling arguments: %w", err)
		}
		v = m
	}
	if p.hasDefaults {
		if err := p.resolved.ApplyDefaults(&v); err != nil {
			return in, fmt.Errorf("validating \"arguments\": applying schema defaults:\n%w", err)
		}
	}
	if p.hasDefaults || p.flat == nil || !p.flat.valid(m) {
		if err := p.resolved.Validate(&v); err != nil {
			return in, fmt.Errorf("validating \"arguments\": %v", err)
		}
	}
	if p.hasDefaults {
		b, err := json.Marshal(v)
		if err != nil {
			return in, fmt.Errorf("validating \"arguments\": marshalling with defaults: %v", err)
		}
		raw = b
	}
	if len(raw) > 0 {
		if err := unmarshalStrict(raw, &in); err != nil {
			return in, err
		}
	}
	return in, nil
}

// unmarshalStrict decodes as the SDK's internal JSON package does (segmentio's
// decoder, struct fields matched case-sensitively), without its per-call
// 32 KiB stream buffer.
func unmarshalStrict(b []byte, v any) error {
	rest, err := segjson.Parse(b, v, segjson.DontMatchCaseInsensitiveStructFields)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("invalid character %q after top-level value", rest[0])
	}
	return err
}

// schemaHasDefaults reports whether ApplyDefaults could change anything:
// it applies "default" of object properties, recursively.
func schemaHasDefaults(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	if s.Default != nil {
		return true
	}
	for _, p := range s.Properties {
		if schemaHasDefaults(p) {
			return true
		}
	}
	return false
}
