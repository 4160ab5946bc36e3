package output

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// sentenceHandler writes a record for a person rather than a program: its
// message as written, after "warning: " or "error: " for those levels, then
// its attributes as key=value (quoted as slog's text handler quotes them),
// with no time and no level=…/msg=… keys.
type sentenceHandler struct {
	w     io.Writer
	mu    *sync.Mutex
	buf   *bytes.Buffer
	attrs slog.Handler // a text handler writing only the attributes to buf
}

func newSentenceHandler(w io.Writer) sentenceHandler {
	buf := new(bytes.Buffer)
	attrs := slog.NewTextHandler(buf, &slog.HandlerOptions{
		Level: slog.LevelInfo,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey) {
				return slog.Attr{}
			}
			return a
		},
	})
	return sentenceHandler{w: w, mu: new(sync.Mutex), buf: buf, attrs: attrs}
}

// Enabled implements slog.Handler.
func (h sentenceHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.attrs.Enabled(ctx, l)
}

// Handle implements slog.Handler.
func (h sentenceHandler) Handle(ctx context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.buf.Reset()
	if err := h.attrs.Handle(ctx, r); err != nil {
		return err
	}
	var b strings.Builder
	switch {
	case r.Level >= slog.LevelError:
		b.WriteString("error: ")
	case r.Level >= slog.LevelWarn:
		b.WriteString("warning: ")
	}
	b.WriteString(r.Message)
	if a := strings.TrimSpace(h.buf.String()); a != "" {
		b.WriteString(" (" + a + ")")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(h.w, b.String())
	return err
}

// WithAttrs implements slog.Handler.
func (h sentenceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h.attrs = h.attrs.WithAttrs(attrs)
	return h
}

// WithGroup implements slog.Handler.
func (h sentenceHandler) WithGroup(name string) slog.Handler {
	h.attrs = h.attrs.WithGroup(name)
	return h
}
