package daemon

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/debatehq/debate/internal/ctxwait"
)

// KeepPidFile keeps the pid file of a background server, whose content is
// record: it looks at path every interval and writes it again when it is
// gone (a server whose state folder was deleted would otherwise run on where
// serve --status and --stop cannot find it); when ctx ends it removes the
// file, unless it names another process by then.
func KeepPidFile(ctx context.Context, path string, record []byte, interval time.Duration, log *slog.Logger) {
	warned := false
	for ctxwait.Sleep(ctx, interval) == nil {
		_, err := os.Stat(path)
		if !errors.Is(err, os.ErrNotExist) {
			continue
		}
		err = os.MkdirAll(filepath.Dir(path), 0o700)
		if err == nil {
			err = os.WriteFile(path, record, 0o600)
		}
		switch {
		case err == nil:
			log.Info("the pid file was gone: written again", "file", path)
			warned = false
		case !warned:
			log.Warn("the pid file is gone and cannot be written again", "file", path, "err", err)
			warned = true
		}
	}
	if b, err := os.ReadFile(path); err == nil && bytes.Equal(b, record) {
		_ = os.Remove(path)
	}
}
