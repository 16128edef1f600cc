package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/session"
)

// Resource URIs.
const (
	ProtocolURI     = "sessiongate://protocol"
	ProtocolSpecURI = "sessiongate://protocol/spec"
)

// sessionViews are the per-session views, each a resource template
// session://{session_id}/NAME.
var sessionViews = []struct {
	name, title, desc string
}{
	{"state", "Session state", "Everything recorded about a session: the session row, checklist, phase results, evidence references and violations."},
	{"checklist", "Session checklist", "Every phase of the session's protocol with its gate level, checks and status."},
	{"history", "Session history", "The session's append-only events (tool calls, gate results, decisions), oldest first."},
	{"violations", "Session violations", "Protocol violations recorded in the session (forced gates, bypasses)."},
}

func (m *handlers) addResources(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{
		URI:         ProtocolURI,
		Name:        "protocol",
		Title:       "Session protocol",
		Description: "The repository's session protocol document as it is now (new sessions start with it).",
		MIMEType:    "text/markdown",
	}, m.readProtocol)
	srv.AddResource(&mcp.Resource{
		URI:         ProtocolSpecURI,
		Name:        "protocol-spec",
		Title:       "Session protocol, parsed",
		Description: "The current protocol as sessiongate parsed it: phases, gate levels, requirements and checks.",
		MIMEType:    "application/json",
	}, m.readProtocolSpec)
	for _, r := range sessionViews {
		srv.AddResourceTemplate(&mcp.ResourceTemplate{
			URITemplate: "session://{session_id}/" + r.name,
			Name:        "session-" + r.name,
			Title:       r.title,
			Description: r.desc + " session_id is the handle session_start returned.",
			MIMEType:    "application/json",
		}, m.readSession)
	}
}

func (m *handlers) readProtocol(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if m.opts.Protocol == nil {
		return nil, resourceNotFound(req.Params.URI, "no protocol configured")
	}
	_, b, err := m.opts.Protocol(ctx)
	if err != nil {
		return nil, resourceNotFound(req.Params.URI, err.Error())
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: string(b)}}}, nil
}

func (m *handlers) readProtocolSpec(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if m.opts.LoadSpec == nil {
		return nil, resourceNotFound(req.Params.URI, "no protocol configured")
	}
	spec, err := m.opts.LoadSpec(ctx)
	if err != nil {
		// A protocol that does not parse: say why, as an internal error
		// rather than the SDK's code 0.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "load protocol: " + err.Error()}
	}
	return jsonContents(req.Params.URI, spec)
}

// readSession serves the session://{session_id}/NAME templates.
func (m *handlers) readSession(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, view, err := parseSessionURI(uri)
	if err != nil {
		return nil, resourceNotFound(uri, err.Error())
	}
	e, err := m.engine()
	if err != nil {
		return nil, err
	}
	if view == "history" {
		evs, err := e.History(ctx, id)
		if err != nil {
			return nil, sessionReadError(uri, err)
		}
		return jsonContents(uri, struct {
			SessionID string          `json:"session_id"`
			Events    []session.Event `json:"events"`
		}{id, evs})
	}
	st, err := e.View(ctx, id)
	if err != nil {
		return nil, sessionReadError(uri, err)
	}
	switch view {
	case "state":
		// With the verdict `session status` prints, so an agent reading
		// its state never sees a not-clean session without being told.
		return jsonContents(uri, struct {
			*session.StateView
			Clean    *bool    `json:"clean,omitempty"`
			NotClean []string `json:"not_clean,omitempty"`
			Verdict  string   `json:"verdict"`
		}{st, session.Clean(st), session.NotCleanReasons(st), session.Verdict(st)})
	case "checklist":
		return jsonContents(uri, struct {
			SessionID string                  `json:"session_id"`
			State     session.State           `json:"state"`
			Phase     string                  `json:"phase"`
			Checklist []session.ChecklistItem `json:"checklist"`
		}{id, st.Session.State, st.Session.Phase, st.Checklist})
	case "violations":
		return jsonContents(uri, struct {
			SessionID  string              `json:"session_id"`
			Violations []session.Violation `json:"violations"`
		}{id, st.Violations})
	}
	return nil, resourceNotFound(uri, "unknown view "+view)
}

// parseSessionURI splits session://ID/VIEW, validating the id.
func parseSessionURI(uri string) (id, view string, err error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "session" {
		return "", "", fmt.Errorf("not a session URI: want session://{session_id}/state")
	}
	id, view = u.Host, strings.TrimPrefix(u.Path, "/")
	if err := session.ValidateID(id); err != nil {
		return "", "", err
	}
	return id, view, nil
}

func sessionReadError(uri string, err error) error {
	if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrInvalidID) {
		return resourceNotFound(uri, err.Error())
	}
	return err
}

// resourceNotFound is the SDK's resource-not-found JSON-RPC error with a
// message that says why.
func resourceNotFound(uri, why string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: mcp.CodeResourceNotFound, Message: "Resource not found: " + why, Data: data}
}

func jsonContents(uri string, v any) (*mcp.ReadResourceResult, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", uri, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}
