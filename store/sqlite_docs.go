package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/debatehq/debate/protocol"
)

// The SQLite backend's documents: each write its own BEGIN IMMEDIATE
// transaction on the writer connection, each read on the reader pool.

func (db *sqliteDB) createDocument(ctx context.Context, nd protocol.NewDocument) (protocol.Document, bool, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return protocol.Document{}, false, fmt.Errorf("create document: %w", err)
	}
	defer tx.Rollback()
	prev, err := scanDocument(tx.QueryRowContext(ctx, `SELECT `+docCols+` FROM documents d
		JOIN document_versions v ON v.document_id = d.id AND v.version = 1 WHERE d.client_request_id = ?`, nd.ClientRequestID))
	if err == nil {
		return prev, true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return protocol.Document{}, false, fmt.Errorf("create document: %w", err)
	}
	now := db.now()
	doc := protocol.Document{ID: newID(), Title: nd.Title, Version: 1, LatestVersion: 1, Content: nd.Content,
		ClientRequestID: nd.ClientRequestID, CreatedAt: parseTime(now)}
	if _, err := tx.ExecContext(ctx, `INSERT INTO documents (id, title, latest_version, client_request_id, created_at, updated_at)
		VALUES (?, ?, 1, ?, ?, ?)`, doc.ID, doc.Title, doc.ClientRequestID, now, now); err != nil {
		return protocol.Document{}, false, fmt.Errorf("create document: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO document_versions (document_id, version, content, client_request_id, created_at)
		VALUES (?, 1, ?, ?, ?)`, doc.ID, doc.Content, doc.ClientRequestID, now); err != nil {
		return protocol.Document{}, false, fmt.Errorf("create document: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return protocol.Document{}, false, fmt.Errorf("create document: commit: %w", err)
	}
	return doc, false, nil
}

func (db *sqliteDB) submitDocument(ctx context.Context, id, content, clientRequestID string) (protocol.Document, bool, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	defer tx.Rollback()
	var title string
	var latest int
	err = tx.QueryRowContext(ctx, `SELECT title, latest_version FROM documents WHERE id = ?`, id).Scan(&title, &latest)
	if errors.Is(err, sql.ErrNoRows) {
		return protocol.Document{}, false, docNotFound(id)
	}
	if err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	prev, err := scanDocument(tx.QueryRowContext(ctx, `SELECT `+docCols+` FROM documents d
		JOIN document_versions v ON v.document_id = d.id WHERE d.id = ? AND v.client_request_id = ?`, id, clientRequestID))
	if err == nil {
		return prev, true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	now := db.now()
	doc := protocol.Document{ID: id, Title: title, Version: latest + 1, LatestVersion: latest + 1, Content: content,
		ClientRequestID: clientRequestID, CreatedAt: parseTime(now)}
	if _, err := tx.ExecContext(ctx, `INSERT INTO document_versions (document_id, version, content, client_request_id, created_at)
		VALUES (?, ?, ?, ?, ?)`, id, doc.Version, content, clientRequestID, now); err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE documents SET latest_version = ?, updated_at = ? WHERE id = ?`, doc.Version, now, id); err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return protocol.Document{}, false, fmt.Errorf("submit document %s: commit: %w", id, err)
	}
	return doc, false, nil
}

func (db *sqliteDB) getDocument(ctx context.Context, id string, version int) (protocol.Document, error) {
	q := `SELECT ` + docCols + ` FROM documents d JOIN document_versions v ON v.document_id = d.id
		WHERE d.id = ? AND v.version = CASE WHEN ? = 0 THEN d.latest_version ELSE ? END`
	doc, err := scanDocument(db.r.QueryRowContext(ctx, q, id, version, version))
	if errors.Is(err, sql.ErrNoRows) {
		if version > 0 {
			var latest int
			if db.r.QueryRowContext(ctx, `SELECT latest_version FROM documents WHERE id = ?`, id).Scan(&latest) == nil {
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

func scanDocument(r scanner) (protocol.Document, error) {
	var d protocol.Document
	var created string
	if err := r.Scan(&d.ID, &d.Title, &d.Version, &d.LatestVersion, &d.Content, &d.ClientRequestID, &created); err != nil {
		return protocol.Document{}, err
	}
	d.CreatedAt = parseTime(created)
	return d, nil
}

func (db *sqliteDB) existingDocuments(ctx context.Context, ids []string) (map[string]bool, error) {
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("existing documents: %w", err)
	}
	rows, err := db.r.QueryContext(ctx, `SELECT id FROM documents WHERE id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("existing documents: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("existing documents: %w", err)
		}
		out[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("existing documents: %w", err)
	}
	return out, nil
}
