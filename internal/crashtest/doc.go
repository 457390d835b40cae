// Package crashtest holds the suite's crash and scale-out tests of the real
// `portal` binary: SIGKILLed at random moments under writes of every kind,
// and two instances sharing one PostgreSQL database. It has no code of its
// own, only tests; `go test -short` skips them.
package crashtest
