package store

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// GetRepository returns the repository with id, or an error wrapping
// session.ErrNotFound.
func (r reader) GetRepository(ctx context.Context, id int64) (*session.Repository, error) {
	var repo session.Repository
	err := r.queryRow(ctx, `SELECT id, root, name, origin FROM repositories WHERE id = ?`, id).
		Scan(&repo.ID, &repo.Root, &repo.Name, &repo.Origin)
	if err != nil {
		return nil, notFound(err, fmt.Sprintf("repository %d", id))
	}
	return &repo, nil
}

// RepositoryByRoot returns the repository rooted at root, or an error
// wrapping session.ErrNotFound.
func (r reader) RepositoryByRoot(ctx context.Context, root string) (*session.Repository, error) {
	var repo session.Repository
	err := r.queryRow(ctx, `SELECT id, root, name, origin FROM repositories WHERE root = ?`, root).
		Scan(&repo.ID, &repo.Root, &repo.Name, &repo.Origin)
	if err != nil {
		return nil, notFound(err, "repository "+root)
	}
	return &repo, nil
}

// EnsureRepository returns the repository rooted at root, inserting it when
// new. A non-empty name replaces the stored one (the folder may be renamed).
func (tx *Tx) EnsureRepository(ctx context.Context, root, name string) (*session.Repository, error) {
	var repo session.Repository
	err := tx.queryRow(ctx, `INSERT INTO repositories (root, name) VALUES (?, ?)
		ON CONFLICT (root) DO UPDATE SET name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE name END
		RETURNING id, root, name, origin`, root, name).Scan(&repo.ID, &repo.Root, &repo.Name, &repo.Origin)
	if err != nil {
		return nil, fmt.Errorf("ensure repository %s: %w", root, err)
	}
	return &repo, nil
}

// SetRepositoryOrigin records a repository's normalized origin URL.
func (tx *Tx) SetRepositoryOrigin(ctx context.Context, repoID int64, origin string) error {
	res, err := tx.exec(ctx, `UPDATE repositories SET origin = ? WHERE id = ?`, origin, repoID)
	return affectedOne(res, err, fmt.Sprintf("set origin of repository %d", repoID))
}
