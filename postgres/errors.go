package postgres

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ServerError is a PostgreSQL failure said in words a person can act on:
// the server shut down or is restarting, or it refused the credentials.
// It wraps the driver's error (errors.Is/As still see the SQLSTATE) but
// its text replaces the raw "FATAL: ... (SQLSTATE 57P01)".
type ServerError struct {
	Host string // the server: host:port, or the socket folder
	Kind ServerErrorKind
	Code string // SQLSTATE when the server sent one
	Err  error
	dial bool // a connection attempt found no server
}

// ServerErrorKind says what went wrong with the server.
type ServerErrorKind int

const (
	// ServerRestarting: the server shut down or restarted (57P01-57P03),
	// or refused the connection (no server listening, as while it restarts).
	ServerRestarting ServerErrorKind = iota + 1
	// ServerBadPassword: the server said 28P01 (invalid_password).
	ServerBadPassword
	// ServerRefusedLogin: the server refused the login for another reason
	// (28000: no pg_hba.conf entry, a user it does not know with trust...).
	ServerRefusedLogin
	// ServerNoDatabase: 3D000, the database does not exist.
	ServerNoDatabase
)

func (e *ServerError) Error() string {
	switch e.Kind {
	case ServerRestarting:
		if e.Code != "" {
			return fmt.Sprintf("the PostgreSQL server at %s shut down or restarted (SQLSTATE %s %s): retry once it is back up", e.Host, e.Code, codeName(e.Code))
		}
		if e.dial {
			return fmt.Sprintf("no PostgreSQL server answers at %s (%s): it is down or restarting; retry once it is back up", e.Host, dialCause(e.Err))
		}
		return fmt.Sprintf("the PostgreSQL server at %s closed the connection (%s): it shut down or restarted; retry once it is back up", e.Host, dialCause(e.Err))
	case ServerBadPassword:
		return fmt.Sprintf("the PostgreSQL server at %s refused the password (SQLSTATE 28P01: %s): check the password in the URL", e.Host, e.serverMessage())
	case ServerRefusedLogin:
		return fmt.Sprintf("the PostgreSQL server at %s refused the login (SQLSTATE %s: %s): check the user name and the server's pg_hba.conf; the password was not the reason", e.Host, e.Code, e.serverMessage())
	case ServerNoDatabase:
		return fmt.Sprintf("the PostgreSQL server at %s has no such database (%s): check the URL's database name", e.Host, e.serverMessage())
	}
	return e.Err.Error()
}

func (e *ServerError) Unwrap() error { return e.Err }

// serverMessage is the server's own sentence, without the FATAL severity
// and the SQLSTATE the message already gives.
func (e *ServerError) serverMessage() string {
	var pe *pgconn.PgError
	if errors.As(e.Err, &pe) {
		return pe.Message
	}
	return ""
}

// scrubbed is an error whose text had the password removed; it keeps the
// chain so callers can still tell a *ServerError.
type scrubbed struct {
	msg string
	err error
}

func (s *scrubbed) Error() string { return s.msg }
func (s *scrubbed) Unwrap() error { return s.err }

func codeName(code string) string {
	switch code {
	case "57P01":
		return "admin_shutdown"
	case "57P02":
		return "crash_shutdown"
	case "57P03":
		return "cannot_connect_now"
	}
	return ""
}

func dialCause(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ENOENT):
		return "its socket is gone"
	case errors.Is(err, syscall.EPIPE):
		return "broken pipe"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	}
	return "cannot connect"
}

// explain turns a driver error the user can act on into a *ServerError;
// any other error (a constraint, a bad query, a timeout) is returned as is.
func explain(err error, host string) error {
	if err == nil {
		return nil
	}
	var se *ServerError
	if errors.As(err, &se) {
		return err
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03":
			return &ServerError{Host: host, Kind: ServerRestarting, Code: pe.Code, Err: err}
		case pe.Code == "28P01":
			return &ServerError{Host: host, Kind: ServerBadPassword, Code: pe.Code, Err: err}
		case pe.Code == "28000":
			return &ServerError{Host: host, Kind: ServerRefusedLogin, Code: pe.Code, Err: err}
		case pe.Code == "3D000":
			return &ServerError{Host: host, Kind: ServerNoDatabase, Code: pe.Code, Err: err}
		}
		return err
	}
	// A dial that found no server: refused on TCP, the socket file gone on
	// a Unix socket (pg_ctl stop removes it). Only for connection attempts:
	// the error chain holds a ConnectError.
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && (errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT)) {
		return &ServerError{Host: host, Kind: ServerRestarting, Err: err, dial: true}
	}
	// A connection the server closed under a query (EPIPE, ECONNRESET).
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) {
		return &ServerError{Host: host, Kind: ServerRestarting, Err: err}
	}
	return err
}

// serverHost is the server a config connects to, for messages: host:port,
// or the socket folder.
func serverHost(cfg *pgconn.Config) string {
	if cfg == nil || cfg.Host == "" {
		return "(default host)"
	}
	if len(cfg.Host) > 0 && cfg.Host[0] == '/' {
		return cfg.Host
	}
	return fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
}

// explainQuerier is a querier whose errors are explained: every read and
// write of the store goes through one, so a restart mid-session reads the
// same everywhere.
type explainQuerier struct {
	q    querier
	host string
}

func (e explainQuerier) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := e.q.Exec(ctx, sql, args...)
	return tag, explain(err, e.host)
}

func (e explainQuerier) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := e.q.Query(ctx, sql, args...)
	if err != nil {
		return rows, explain(err, e.host)
	}
	return explainRows{Rows: rows, host: e.host}, nil
}

func (e explainQuerier) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return explainRow{row: e.q.QueryRow(ctx, sql, args...), host: e.host}
}

type explainRows struct {
	pgx.Rows
	host string
}

func (r explainRows) Err() error { return explain(r.Rows.Err(), r.host) }

func (r explainRows) Scan(dest ...any) error { return explain(r.Rows.Scan(dest...), r.host) }

type explainRow struct {
	row  pgx.Row
	host string
}

func (r explainRow) Scan(dest ...any) error { return explain(r.row.Scan(dest...), r.host) }

// driverQ is the driver's querier under an explainQuerier, for the few
// places that need the pool or the transaction itself.
func driverQ(q querier) querier {
	if e, ok := q.(explainQuerier); ok {
		return e.q
	}
	return q
}

func explainHost(q querier) string {
	if e, ok := q.(explainQuerier); ok {
		return e.host
	}
	return "(unknown host)"
}
