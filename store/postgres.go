package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/internal/redact"
)

// notifyChannel is the LISTEN/NOTIFY channel of commits: the payload is the
// debate id and its newest seq ("<seq> <id>"; seq 0 after a delete).
const notifyChannel = "debate_commits"

// pgSafetyPoll is how often, while anyone waits, a PostgreSQL Store reads the
// newest seq of the debates waited on, in case a notification was lost (a
// listener connection that dropped and reconnected).
const pgSafetyPoll = 250 * time.Millisecond

// defaultPoolSize is the connection pool's size when the URL does not set
// pool_max_conns.
const defaultPoolSize = 16

// IsPostgres reports whether db names a PostgreSQL database (a postgres:// or
// postgresql:// URL) rather than a SQLite file.
func IsPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// pgDB is the PostgreSQL backend of a Store: a connection pool for reads and
// writes and one connection that LISTENs for the commits of every replica.
type pgDB struct {
	s    *Store
	pool *pgxpool.Pool
	name string // the URL without its password, for errors

	stopListen context.CancelFunc
	listening  sync.WaitGroup
}

// openPostgres connects to the database at rawURL, applies pending
// migrations and starts listening for commits.
func openPostgres(ctx context.Context, rawURL string, opts Options) (*Store, error) {
	name := redact.URL(rawURL)
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		// pgx's parse errors may quote the URL, password included.
		return nil, fmt.Errorf("open store %s: the URL is not a valid PostgreSQL connection URL", name)
	}
	if u, err := url.Parse(rawURL); err == nil && !u.Query().Has("pool_max_conns") {
		cfg.MaxConns = defaultPoolSize
	}
	cfg.ConnConfig.Tracer = opts.tracer
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	p := &pgDB{pool: pool, name: name}
	s := &Store{opts: opts, db: p}
	p.s = s
	if err := p.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	// No head is ever stored: other replicas commit without this one
	// knowing, so every poll reads the database.
	s.heads = newHeads(0)
	s.hub = newHub(s)
	// Listen before Open returns, so that no commit after it goes unheard.
	conn, err := p.listen(ctx)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("open store %s: %w", name, err)
	}
	lctx, cancel := context.WithCancel(context.Background())
	p.stopListen = cancel
	p.listening.Add(1)
	go p.relay(lctx, conn)
	return s, nil
}

// close closes the Store's hub, stops listening and closes the pool.
func (p *pgDB) close() error {
	p.s.hub.close()
	p.stopListen()
	p.listening.Wait()
	p.pool.Close()
	return nil
}

// listen opens the connection that receives commit notifications.
func (p *pgDB) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, p.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, fmt.Errorf("listen for commits: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		conn.Close(context.Background())
		return nil, fmt.Errorf("listen for commits: %w", err)
	}
	return conn, nil
}

// relay wakes this Store's subscribers on every commit notification, from
// this replica or another, until ctx ends. When the connection drops it
// reconnects, backing off up to a few seconds, and then wakes every
// subscriber, since a commit may have gone unheard meanwhile.
func (p *pgDB) relay(ctx context.Context, conn *pgx.Conn) {
	defer p.listening.Done()
	backoff := 50 * time.Millisecond
	for {
		if conn == nil {
			c, err := p.listen(ctx)
			if err != nil {
				if ctx.Err() == nil {
					p.s.opts.Logger.Error("store: listen for commits", "db", p.name, "err", err)
				}
				if ctxwait.Sleep(ctx, backoff) != nil {
					return
				}
				backoff = min(2*backoff, 5*time.Second)
				continue
			}
			conn, backoff = c, 50*time.Millisecond
			p.s.hub.wakeAll()
		}
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			conn.Close(context.Background())
			conn = nil
			if ctx.Err() != nil {
				return
			}
			p.s.opts.Logger.Error("store: commit notifications", "db", p.name, "err", err)
			continue
		}
		if id, seq, ok := parseNotice(n.Payload); ok {
			p.s.hub.heard(id, seq)
		}
	}
}

// notice is the payload of the notification of a commit to debateID whose
// newest seq is seq: "<seq> <debate id>".
func notice(debateID string, seq int) string { return strconv.Itoa(seq) + " " + debateID }

// parseNotice reads a notice; ok is false for anything notice does not write.
func parseNotice(payload string) (debateID string, seq int, ok bool) {
	seqText, id, found := strings.Cut(payload, " ")
	seq, err := strconv.Atoi(seqText)
	if !found || err != nil || seq < 0 || strconv.Itoa(seq) != seqText {
		return "", 0, false
	}
	return id, seq, true
}

// check checks that the database answers: PostgreSQL checks its own pages.
func (p *pgDB) check(ctx context.Context) error {
	if err := p.pool.Ping(ctx); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	return nil
}

// watch is the hub's watcher on PostgreSQL: a safety net behind the
// notifications, reading the newest seq of every debate waited on, until stop
// closes (which ends ctx).
func (p *pgDB) watch(ctx context.Context, h *hub, stop <-chan struct{}) {
	t := time.NewTicker(pgSafetyPoll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		ids, local := h.subscribed()
		rows, err := p.pool.Query(ctx, `SELECT COALESCE((SELECT MAX(seq) FROM arguments WHERE debate_id = i.id), 0)
			FROM unnest($1::text[]) WITH ORDINALITY AS i(id, n) ORDER BY i.n`, ids)
		var seqs []int
		if err == nil {
			seqs, err = pgx.CollectRows(rows, pgx.RowTo[int])
		}
		if err != nil {
			if ctx.Err() == nil {
				p.s.opts.Logger.Error("store watcher", "db", p.name, "err", err)
			}
			continue
		}
		h.moved(ids, seqs, local)
	}
}

// pgMigrations[i] moves the PostgreSQL schema from version i to i+1 (the
// debate_schema table). The same tables and constraints as SQLite's, with
// PostgreSQL's types; version 2 adds last_word_seq and its trigger as
// SQLite's version 3 does, so that replicas of an older version, still
// running while newer ones start, keep it right too. Append only; never edit a released migration.
var pgMigrations = []string{
	`
CREATE TABLE debates (
	id          text PRIMARY KEY,
	title       text NOT NULL,
	debate_type text NOT NULL,
	state       text NOT NULL CHECK (state IN ('AWAITING_OPPONENT','AWAITING_PROPOSER','AWAITING_ARBITRATOR','INTERVENTION_PENDING','CLOSED')),
	created_at  timestamptz NOT NULL,
	updated_at  timestamptz NOT NULL
);

CREATE TABLE arguments (
	id                text PRIMARY KEY,
	debate_id         text NOT NULL REFERENCES debates (id) ON DELETE CASCADE,
	parent_id         text,
	type              text NOT NULL CHECK (type IN ('MOTION','CLAIM','APPEAL','RULING','INTERVENTION','RESOLUTION')),
	role              text NOT NULL CHECK (role IN ('proposer','opponent','arbitrator')),
	content           text NOT NULL,
	client_request_id text NOT NULL,
	seq               integer NOT NULL CHECK (seq >= 1),
	state_after       text NOT NULL,
	created_at        timestamptz NOT NULL,
	UNIQUE (debate_id, seq),
	UNIQUE (debate_id, client_request_id)
);

CREATE INDEX debates_by_update ON debates (updated_at DESC, id DESC);

CREATE TABLE documents (
	id                text PRIMARY KEY,
	title             text NOT NULL,
	latest_version    integer NOT NULL,
	client_request_id text NOT NULL UNIQUE,
	created_at        timestamptz NOT NULL,
	updated_at        timestamptz NOT NULL
);

CREATE TABLE document_versions (
	document_id       text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
	version           integer NOT NULL CHECK (version >= 1),
	content           text NOT NULL,
	client_request_id text NOT NULL,
	created_at        timestamptz NOT NULL,
	PRIMARY KEY (document_id, version),
	UNIQUE (document_id, client_request_id)
);
`,
	`
ALTER TABLE debates ADD COLUMN last_word_seq integer NOT NULL DEFAULT 0;
UPDATE debates d SET last_word_seq = w.seq
FROM (SELECT debate_id, MAX(seq) AS seq FROM arguments WHERE type IN ('INTERVENTION', 'RULING') GROUP BY debate_id) w
WHERE w.debate_id = d.id;
CREATE FUNCTION debate_last_word() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE debates SET last_word_seq = NEW.seq WHERE id = NEW.debate_id;
	RETURN NULL;
END
$$;
CREATE TRIGGER arguments_last_word AFTER INSERT ON arguments FOR EACH ROW
	WHEN (NEW.type IN ('INTERVENTION', 'RULING')) EXECUTE FUNCTION debate_last_word();
`,
}

// migrateLock is the advisory lock key under which replicas starting at once
// migrate one after the other.
const migrateLock = 0x64656261 // "deba"

// migrate applies pending migrations in one transaction under an advisory
// lock, so replicas opening a new database at once apply them exactly once.
func (p *pgDB) migrate(ctx context.Context) error {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS debate_schema (version integer NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var v int
	err = tx.QueryRow(ctx, `SELECT version FROM debate_schema`).Scan(&v)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("migrate: read the schema version: %w", err)
	}
	if v > len(pgMigrations) {
		return fmt.Errorf("migrate: database schema version %d is newer than this program's %d; upgrade debate", v, len(pgMigrations))
	}
	if v == len(pgMigrations) {
		return nil
	}
	for i := v; i < len(pgMigrations); i++ {
		if _, err := tx.Exec(ctx, pgMigrations[i]); err != nil {
			return fmt.Errorf("migrate: to version %d: %w", i+1, err)
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM debate_schema`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO debate_schema (version) VALUES ($1)`, len(pgMigrations)); err != nil {
		return fmt.Errorf("migrate: set the schema version: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
