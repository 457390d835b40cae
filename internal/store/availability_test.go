package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"applicantportal/internal/portal"
)

// TestClassify covers the driver errors the real-outage tests
// (httpapi's TestDatabaseAwayAnswers503, TestStorageFullAnswers507) cannot
// produce here, such as PostgreSQL's disk_full.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"PostgresDiskFull", fmt.Errorf("store: save: %w", &pgconn.PgError{Code: "53100"}), portal.ESTORAGEFULL},
		{"PostgresAdminShutdown", &pgconn.PgError{Code: "57P01"}, portal.EUNAVAILABLE},
		{"PostgresCrashShutdown", &pgconn.PgError{Code: "57P02"}, portal.EUNAVAILABLE},
		{"PostgresStartingUp", &pgconn.PgError{Code: "57P03"}, portal.EUNAVAILABLE},
		{"PostgresConnectionFailure", &pgconn.PgError{Code: "08006"}, portal.EUNAVAILABLE},
		{"PostgresUniqueViolation", &pgconn.PgError{Code: "23505"}, ""},
		{"BadConn", fmt.Errorf("store: read: %w", driver.ErrBadConn), portal.EUNAVAILABLE},
		{"Refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, portal.EUNAVAILABLE},
		{"NoSpaceForAFile", &fs.PathError{Op: "write", Path: "/data/x", Err: syscall.ENOSPC}, portal.ESTORAGEFULL},
		{"ClientLeft", fmt.Errorf("store: read: %w", context.Canceled), ""},
		{"AlreadyAPortalError", portal.Errorf(portal.ENOTFOUND, "Not found."), ""},
		{"Other", errors.New("store: something else"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := classify(tc.err); got != tc.want {
				t.Fatalf("classify(%v) = %q; want %q", tc.err, got, tc.want)
			}
		})
	}
}
