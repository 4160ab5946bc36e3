package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/debatehq/debate/protocol"
)

const docCols = "d.id, d.title, v.version, d.latest_version, v.content, v.client_request_id, v.created_at"

// CreateDocument stores version 1 of a new document. With a ClientRequestID
// that was used before, it returns that document's version 1 and replay true
// and writes nothing.
func (s *Store) CreateDocument(ctx context.Context, nd protocol.NewDocument) (protocol.Document, bool, error) {
	if utf8.RuneCountInString(nd.Title) > maxTitleLen {
		return protocol.Document{}, false, invalid(fmt.Sprintf("title is longer than %d characters", maxTitleLen), "shorten the title")
	}
	if err := s.checkDocument(nd.Content); err != nil {
		return protocol.Document{}, false, err
	}
	if nd.ClientRequestID == "" {
		nd.ClientRequestID = newID()
	} else if err := checkID("client_request_id", nd.ClientRequestID); err != nil {
		return protocol.Document{}, false, err
	}
	if s.pg != nil {
		return s.pg.createDocument(ctx, nd)
	}
	tx, err := s.w.BeginTx(ctx, nil)
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
	now := s.now()
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

// SubmitDocument stores the next version of document id. With a
// ClientRequestID already used for this document it returns that version and
// replay true and writes nothing.
func (s *Store) SubmitDocument(ctx context.Context, id, content, clientRequestID string) (protocol.Document, bool, error) {
	if err := s.checkDocument(content); err != nil {
		return protocol.Document{}, false, err
	}
	if clientRequestID == "" {
		clientRequestID = newID()
	} else if err := checkID("client_request_id", clientRequestID); err != nil {
		return protocol.Document{}, false, err
	}
	if s.pg != nil {
		return s.pg.submitDocument(ctx, id, content, clientRequestID)
	}
	tx, err := s.w.BeginTx(ctx, nil)
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
	now := s.now()
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

// GetDocument returns version of document id, or its latest version when
// version is 0.
func (s *Store) GetDocument(ctx context.Context, id string, version int) (protocol.Document, error) {
	if version < 0 {
		return protocol.Document{}, invalid("version must be 1 or more (0 for the latest)", "")
	}
	if s.pg != nil {
		return s.pg.getDocument(ctx, id, version)
	}
	q := `SELECT ` + docCols + ` FROM documents d JOIN document_versions v ON v.document_id = d.id
		WHERE d.id = ? AND v.version = CASE WHEN ? = 0 THEN d.latest_version ELSE ? END`
	doc, err := scanDocument(s.r.QueryRowContext(ctx, q, id, version, version))
	if errors.Is(err, sql.ErrNoRows) {
		if version > 0 {
			var latest int
			if s.r.QueryRowContext(ctx, `SELECT latest_version FROM documents WHERE id = ?`, id).Scan(&latest) == nil {
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

// ExistingDocuments reports which of ids name a document, in one query that
// reads no content: the set holds the ids that exist.
func (s *Store) ExistingDocuments(ctx context.Context, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	if s.pg != nil {
		return s.pg.existingDocuments(ctx, ids, out)
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("existing documents: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM documents WHERE id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("existing documents: %w", err)
	}
	defer rows.Close()
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

func (s *Store) checkDocument(content string) error {
	if len(content) > s.opts.DocumentLimit {
		return &protocol.Error{
			Code:       protocol.CodeContentTooLarge,
			Message:    fmt.Sprintf("document has %d bytes, the limit is %d", len(content), s.opts.DocumentLimit),
			Suggestion: "split the document into several documents",
		}
	}
	if strings.TrimSpace(content) == "" {
		return invalid("document content is required", "")
	}
	return nil
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

func noVersion(id string, version, latest int) error {
	return protocol.Errorf(protocol.CodeDocumentNotFound, "document %s has no version %d", id, version).
		WithSuggestion(fmt.Sprintf("versions run from 1 to %d", latest))
}

func docNotFound(id string) error {
	return protocol.Errorf(protocol.CodeDocumentNotFound, "document %s not found", id).
		WithSuggestion("check the doc_id you were given")
}
