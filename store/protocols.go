package store

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// GetProtocol returns the stored protocol with the given content hash, or an
// error wrapping session.ErrNotFound.
func (r reader) GetProtocol(ctx context.Context, sha256 string) (*session.Protocol, error) {
	var p session.Protocol
	var created int64
	err := r.queryRow(ctx, `SELECT sha256, name, content, spec_json, created_at
		FROM protocols WHERE sha256 = ?`, sha256).Scan(&p.SHA256, &p.Name, &p.Content, &p.SpecJSON, &created)
	if err != nil {
		return nil, notFound(err, "protocol "+sha256)
	}
	p.CreatedAt = fromNanos(created)
	return &p, nil
}

// PutProtocol stores p unless a protocol with its hash exists: the hash is
// of the content, so the stored row is already right. A zero CreatedAt gets
// the transaction's time.
func (tx *Tx) PutProtocol(ctx context.Context, p *session.Protocol) error {
	p.CreatedAt = tx.stamp(p.CreatedAt)
	content := p.Content
	if content == nil {
		content = []byte{}
	}
	_, err := tx.exec(ctx, `INSERT INTO protocols (sha256, name, content, spec_json, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING`,
		p.SHA256, p.Name, content, p.SpecJSON, nanos(p.CreatedAt))
	if err != nil {
		return fmt.Errorf("put protocol %s: %w", p.SHA256, err)
	}
	return nil
}
