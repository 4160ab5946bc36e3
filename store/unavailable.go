package store

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err means the database could not be reached
// or dropped the connection (a PostgreSQL restart, failover or network
// break), so that the same request may succeed a moment later: no
// connection could be made, the connection broke, or the server said it is
// shutting down or starting up (SQLSTATE class 08, 57P01–57P03). A write
// that failed this way may have been committed just before the connection
// broke: retry it with its client_request_id. The end of the caller's own
// context is not unavailability.
func Unavailable(err error) bool {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true // its connect_timeout is a deadline too
	}
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ne net.Error
	return pgconn.SafeToRetry(err) || errors.As(err, &ne) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, pgconn.ErrConnClosed)
}

// Ping checks that the database answers, as a health check does: it opens
// a connection if none is idle and runs an empty statement.
func (s *Store) Ping(ctx context.Context) error { return s.db.ping(ctx) }

func (p *pgDB) ping(ctx context.Context) error { return p.pool.Ping(ctx) }

func (db *sqliteDB) ping(ctx context.Context) error { return db.r.PingContext(ctx) }
