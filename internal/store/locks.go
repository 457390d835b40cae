package store

// The classes of PostgreSQL advisory locks, in one place so that no two
// uses share a number by accident: dialect.lock takes the two-key form
// pg_advisory_xact_lock(class, hashtext(key)), so two uses with the same
// class would make unrelated work wait on each other (and could deadlock).
// goose's migration lock uses the one-key form and never meets these. A
// class, once used, is never reused for something else: instances of an
// older version may still run beside a newer one during a rolling update.
const (
	// lockLoginUsername serialises the failed-login count, the password
	// check and the record of one username across instances (checkPassword).
	lockLoginUsername = 1
	// Class 2 was the per-IP class of login throttling; it is no longer
	// used and stays reserved (see the comment above).
	lockRetiredLoginIP = 2
	// lockResetUsername serialises the password-reset requests of one
	// username; resetThrottle also takes lockResetUsername+1 for the IP,
	// which must therefore be lockResetIP.
	lockResetUsername = 3
	// lockResetIP serialises the password-reset requests of one IP.
	lockResetIP = 4
	// lockAtomically is the class of Atomically's named locks.
	lockAtomically = 5
	// lockSweep makes the sweeps of several processes run one after
	// another.
	lockSweep = 6
	// lockCodeUsername and lockCodeIP serialise the sign-in code requests
	// of one username and of one IP (codeThrottle).
	lockCodeUsername = 7
	lockCodeIP       = 8
	// lockRenewalUsername and lockRenewalIP serialise the new-link
	// requests of one username and of one IP (renewalThrottle).
	lockRenewalUsername = 9
	lockRenewalIP       = 10
)

// advisoryLockClasses lists every class above, for the test that they are
// distinct.
var advisoryLockClasses = map[string]int32{
	"lockLoginUsername":   lockLoginUsername,
	"lockRetiredLoginIP":  lockRetiredLoginIP,
	"lockResetUsername":   lockResetUsername,
	"lockResetIP":         lockResetIP,
	"lockAtomically":      lockAtomically,
	"lockSweep":           lockSweep,
	"lockCodeUsername":    lockCodeUsername,
	"lockCodeIP":          lockCodeIP,
	"lockRenewalUsername": lockRenewalUsername,
	"lockRenewalIP":       lockRenewalIP,
}
