package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/debatehq/debate/protocol"
)

func (p *pgDB) createDocument(ctx context.Context, nd protocol.NewDocument) (protocol.Document, bool, error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return protocol.Document{}, false, fmt.Errorf("create document: %w", err)
	}
	defer tx.Rollback(context.Background())
	now := p.now()
	doc := protocol.Document{ID: newID(), Title: nd.Title, Version: 1, LatestVersion: 1, Content: nd.Content,
		ClientRequestID: nd.ClientRequestID, CreatedAt: now}
	// A create with the same client_request_id committed meanwhile makes
	// this insert wait for it and then do nothing.
	tag, err := tx.Exec(ctx, `INSERT INTO documents (id, title, latest_version, client_request_id, created_at, updated_at)
		VALUES ($1, $2, 1, $3, $4, $4) ON CONFLICT (client_request_id) DO NOTHING`, doc.ID, doc.Title, doc.ClientRequestID, now)
	if err != nil {
		return protocol.Document{}, false, fmt.Errorf("create document: %w", err)
	}
	if tag.RowsAffected() == 0 {
		prev, err := pgScanDocument(tx.QueryRow(ctx, `SELECT `+docCols+` FROM documents d
			JOIN document_versions v ON v.document_id = d.id AND v.version = 1 WHERE d.client_request_id = $1`, nd.ClientRequestID))
		if err != nil {
			return protocol.Document{}, false, fmt.Errorf("create document: read the original: %w", err)
		}
		return prev, true, nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO document_versions (document_id, version, content, client_request_id, created_at)
		VALUES ($1, 1, $2, $3, $4)`, doc.ID, doc.Content, doc.ClientRequestID, now); err != nil {
		return protocol.Document{}, false, fmt.Errorf("create document: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return protocol.Document{}, false, fmt.Errorf("create document: commit: %w", err)
	}
	return doc, false, nil
}

func (p *pgDB) submitDocument(ctx context.Context, id, content, clientRequestID string) (protocol.Document, bool, error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	defer tx.Rollback(context.Background())
	var title string
	var latest int
	// The row lock orders the versions of one document.
	err = tx.QueryRow(ctx, `SELECT title, latest_version FROM documents WHERE id = $1 FOR UPDATE`, id).Scan(&title, &latest)
	if errors.Is(err, pgx.ErrNoRows) {
		return protocol.Document{}, false, docNotFound(id)
	}
	if err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	prev, err := pgScanDocument(tx.QueryRow(ctx, `SELECT `+docCols+` FROM documents d
		JOIN document_versions v ON v.document_id = d.id WHERE d.id = $1 AND v.client_request_id = $2`, id, clientRequestID))
	if err == nil {
		return prev, true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	now := p.now()
	doc := protocol.Document{ID: id, Title: title, Version: latest + 1, LatestVersion: latest + 1, Content: content,
		ClientRequestID: clientRequestID, CreatedAt: now}
	if _, err := tx.Exec(ctx, `INSERT INTO document_versions (document_id, version, content, client_request_id, created_at)
		VALUES ($1, $2, $3, $4, $5)`, id, doc.Version, content, clientRequestID, now); err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE documents SET latest_version = $1, updated_at = $2 WHERE id = $3`, doc.Version, now, id); err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: commit: %w", id, err)
	}
	return doc, false, nil
}

func (p *pgDB) getDocument(ctx context.Context, id string, version int) (protocol.Document, error) {
	doc, err := pgScanDocument(p.pool.QueryRow(ctx, `SELECT `+docCols+` FROM documents d JOIN document_versions v ON v.document_id = d.id
		WHERE d.id = $1 AND v.version = CASE WHEN $2::integer = 0 THEN d.latest_version ELSE $2 END`, id, version))
	if errors.Is(err, pgx.ErrNoRows) {
		if version > 0 {
			var latest int
			if p.pool.QueryRow(ctx, `SELECT latest_version FROM documents WHERE id = $1`, id).Scan(&latest) == nil {
				return protocol.Document{}, noVersion(id, version, latest)
			}
		}
		return protocol.Document{}, docNotFound(id)
	}
	if err != nil {
		return protocol.Document{}, fmt.Errorf("get document %s: %w", id, err)
	}
	return doc, nil
}

func (p *pgDB) existingDocuments(ctx context.Context, ids []string) (map[string]bool, error) {
	rows, err := p.pool.Query(ctx, `SELECT id FROM documents WHERE id = ANY($1::text[])`, ids)
	if err != nil {
		return nil, fmt.Errorf("existing documents: %w", err)
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("existing documents: %w", err)
	}
	out := make(map[string]bool, len(found))
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}

func pgScanDocument(r scanner) (protocol.Document, error) {
	var d protocol.Document
	if err := r.Scan(&d.ID, &d.Title, &d.Version, &d.LatestVersion, &d.Content, &d.ClientRequestID, &d.CreatedAt); err != nil {
		return protocol.Document{}, err
	}
	d.CreatedAt = d.CreatedAt.UTC()
	return d, nil
}
