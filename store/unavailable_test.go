package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/debatehq/debate/protocol"
)

func TestUnavailable(t *testing.T) {
	t.Parallel()
	// A real refused connection: nothing listens on the port of a closed
	// listener.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, refused := pgx.Connect(context.Background(), "postgres://debate@"+addr+"/x?sslmode=disable&connect_timeout=5")
	if refused == nil {
		t.Fatal("connected to a closed port")
	}
	wrap := func(err error) error { return fmt.Errorf("submit CLAIM to d1: %w", err) }
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"refused connection", wrap(refused), true},
		{"admin shutdown", wrap(&pgconn.PgError{Code: "57P01"}), true},
		{"starting up", wrap(&pgconn.PgError{Code: "57P03"}), true},
		{"connection failure class", wrap(&pgconn.PgError{Code: "08006"}), true},
		{"broken connection", wrap(io.ErrUnexpectedEOF), true},
		{"reset", wrap(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}), true},
		{"closed conn", wrap(pgconn.ErrConnClosed), true},
		{"unique violation", wrap(&pgconn.PgError{Code: "23505"}), false},
		{"bad input", wrap(&pgconn.PgError{Code: "22021"}), false},
		{"a refusal", protocol.Errorf(protocol.CodeActionNotAllowed, "no"), false},
		{"cancelled request", wrap(context.Canceled), false},
		{"deadline", wrap(context.DeadlineExceeded), false},
		{"other", errors.New("disk full"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := Unavailable(tt.err); got != tt.want {
			t.Errorf("%s: Unavailable(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}
