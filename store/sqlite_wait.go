package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/debatehq/debate/protocol"
)

// The SQLite backend's side of waiting: the newest argument of a debate,
// from the heads when they are current, and the watcher of commits made by
// other processes.

func (db *sqliteDB) position(ctx context.Context, id string) (debateID string, seq int, found bool, err error) {
	err = db.r.QueryRowContext(ctx, `SELECT debate_id, seq FROM arguments WHERE id = ?`, id).Scan(&debateID, &seq)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, false, nil
	}
	return debateID, seq, err == nil, err
}

// newest returns a debate and its newest argument: the head kept in memory
// while it is fresh (see heads), else read in one statement.
func (db *sqliteDB) newest(ctx context.Context, debateID string) (protocol.Debate, protocol.Argument, error) {
	if d, a, ok := db.heads.get(debateID); ok {
		return d, a, nil
	}
	if db.wr.verify() {
		if d, a, ok := db.heads.get(debateID); ok {
			return d, a, nil
		}
	}
	gen := db.heads.generation()
	d, a, err := db.readNewest(ctx, debateID)
	if err == nil {
		db.heads.put(gen, d, a)
	}
	return d, a, err
}

// readNewest reads a debate and its newest argument from SQLite in one
// statement.
func (db *sqliteDB) readNewest(ctx context.Context, debateID string) (protocol.Debate, protocol.Argument, error) {
	var d protocol.Debate
	var a protocol.Argument
	var typ, state, created, updated, aType, aRole, aState, aCreated string
	var parent sql.NullString
	err := db.stmts.newest.QueryRowContext(ctx, debateID).Scan(&d.Title, &typ, &state, &created, &updated,
		&a.ID, &a.DebateID, &parent, &aType, &aRole, &a.Content, &a.ClientRequestID, &a.Seq, &aState, &aCreated)
	if errors.Is(err, sql.ErrNoRows) {
		return d, a, notFound(debateID)
	}
	if err != nil {
		return d, a, fmt.Errorf("read debate %s: %w", debateID, err)
	}
	d.ID, d.Type, d.State = debateID, protocol.DebateType(typ), protocol.State(state)
	d.CreatedAt, d.UpdatedAt = parseTime(created), parseTime(updated)
	a.ParentID = parent.String
	a.Type, a.Role, a.StateAfter = protocol.ArgType(aType), protocol.Role(aRole), protocol.State(aState)
	a.CreatedAt = parseTime(aCreated)
	return d, a, nil
}

// watch polls PRAGMA data_version on one dedicated connection; the value
// changes whenever another connection (of this or another process) commits.
// On a change it compares each subscribed debate's newest seq with the last
// one seen and wakes the subscribers of those that moved. It reads the data
// version before listing the subscribed debates, so a commit is either seen by
// the check that follows or changes the version again.
func (db *sqliteDB) watch(ctx context.Context, h *hub, stop <-chan struct{}) {
	t := time.NewTicker(db.opts.PollInterval)
	defer t.Stop()
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	last := int64(-1)
	for {
		if conn == nil {
			c, err := db.r.Conn(ctx)
			if err == nil {
				conn = c
			} else if ctx.Err() == nil {
				db.opts.Logger.Error("store watcher: no connection", "err", err)
			}
		}
		if conn != nil {
			var v int64
			err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
			if err == nil && v != last {
				if err = db.moved(ctx, h, conn); err == nil {
					last = v
				}
			}
			if err != nil && ctx.Err() == nil {
				db.opts.Logger.Error("store watcher", "err", err)
				conn.Close()
				conn = nil
			}
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// moved tells h the newest seq of each debate h has subscribers for, read on
// conn.
func (db *sqliteDB) moved(ctx context.Context, h *hub, conn *sql.Conn) error {
	ids, local := h.subscribed()
	// check runs after the database changed: someone committed.
	h.mu.Lock()
	signal(h.subs[AllDebates])
	h.mu.Unlock()
	seqs := make([]int, len(ids))
	for i, id := range ids {
		if err := conn.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM arguments WHERE debate_id = ?`, id).Scan(&seqs[i]); err != nil {
			return fmt.Errorf("check debate %s: %w", id, err)
		}
	}
	h.moved(ids, seqs, local)
	return nil
}
