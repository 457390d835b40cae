//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// tryFlock takes an flock(2) on f, exclusive or shared, without waiting
// and says whether it got it.
func tryFlock(f *os.File, exclusive bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
