package ops

import (
	"context"
	"fmt"

	"github.com/debatehq/debate/server/api"
)

// Doc is a document's version as an agent reads it: its id and numbers
// first, then the document as the server sent it.
type Doc struct {
	DocID         string `json:"doc_id"`
	Version       int    `json:"version"`
	LatestVersion int    `json:"latest_version"`
	Title         string `json:"title"`
	// Replay, for a write, says whether it was a replay of an earlier one.
	Replay   *bool        `json:"replay,omitempty"`
	Document api.Document `json:"document"`
}

// DocWrite is a new document, or the next version of one (DocID set).
type DocWrite struct {
	DocID           string `json:"doc_id,omitempty" jsonschema:"the document of which this is the next version; empty creates a new document"`
	Title           string `json:"title,omitempty" jsonschema:"title of a new document"`
	Content         string `json:"content" jsonschema:"the document's text (plans, reviews, logs; up to 1 MiB)"`
	ClientRequestID string `json:"client_request_id,omitempty" jsonschema:"idempotency key: resending it returns the original write"`
}

// Check returns an *InputError naming the first field that is missing.
func (w DocWrite) Check() error {
	if w.Content == "" {
		return missing("content", "the document's text")
	}
	return nil
}

// WriteDoc stores w: version 1 of a new document, or the next version of
// w.DocID.
func WriteDoc(ctx context.Context, d Debates, w DocWrite) (Doc, error) {
	if err := w.Check(); err != nil {
		return Doc{}, err
	}
	var r api.DocumentResult
	var err error
	if w.DocID == "" {
		r, err = d.CreateDocument(ctx, api.CreateDocumentRequest{Title: w.Title, Content: w.Content, ClientRequestID: w.ClientRequestID})
	} else {
		r, err = d.SubmitDocument(ctx, w.DocID, api.SubmitDocumentRequest{Content: w.Content, ClientRequestID: w.ClientRequestID})
	}
	if err != nil {
		return Doc{}, err
	}
	doc := doc(r)
	doc.Replay = &r.Replay
	return doc, nil
}

// ReadDoc returns version of document id; 0 is the latest.
func ReadDoc(ctx context.Context, d Debates, id string, version int) (Doc, error) {
	if err := CheckDoc(id, version); err != nil {
		return Doc{}, err
	}
	r, err := d.GetDocument(ctx, id, version)
	if err != nil {
		return Doc{}, err
	}
	return doc(r), nil
}

// CheckDoc returns an *InputError when ReadDoc of version of document id
// would be refused.
func CheckDoc(id string, version int) error {
	if id == "" {
		return missing("doc_id", "")
	}
	if version < 0 {
		return &InputError{Field: "version", Problem: fmt.Sprintf("must be 1 or more, or 0 for the latest (got %d)", version)}
	}
	return nil
}

func doc(r api.DocumentResult) Doc {
	return Doc{DocID: r.Document.ID, Version: r.Document.Version, LatestVersion: r.Document.LatestVersion,
		Title: r.Document.Title, Document: r.Document}
}
