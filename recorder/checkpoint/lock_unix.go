//go:build unix

package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockTree keeps a second process from writing the same tree file: with --nats two commands may
// share a data folder that no embedded server locks. The kernel drops the lock when the file is
// closed or the process dies.
func lockTree(f *os.File) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("%w: %s", ErrTreeInUse, f.Name())
		}
		return fmt.Errorf("checkpoint: tree lock: %w", err)
	}
	return nil
}
