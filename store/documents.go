package store

import (
	"context"
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
	return s.db.createDocument(ctx, nd)
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
	return s.db.submitDocument(ctx, id, content, clientRequestID)
}

// GetDocument returns version of document id, or its latest version when
// version is 0.
func (s *Store) GetDocument(ctx context.Context, id string, version int) (protocol.Document, error) {
	if version < 0 {
		return protocol.Document{}, invalid("version must be 1 or more (0 for the latest)", "")
	}
	return s.db.getDocument(ctx, id, version)
}

// ExistingDocuments reports which of ids name a document, in one query that
// reads no content: the set holds the ids that exist.
func (s *Store) ExistingDocuments(ctx context.Context, ids []string) (map[string]bool, error) {
	if len(ids) == 0 {
		return map[string]bool{}, nil
	}
	return s.db.existingDocuments(ctx, ids)
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

func noVersion(id string, version, latest int) error {
	return protocol.Errorf(protocol.CodeDocumentNotFound, "document %s has no version %d", id, version).
		WithSuggestion(fmt.Sprintf("versions run from 1 to %d", latest))
}

func docNotFound(id string) error {
	return protocol.Errorf(protocol.CodeDocumentNotFound, "document %s not found", id).
		WithSuggestion("check the doc_id you were given")
}
