package logfile

import (
	"syscall"
	"testing"
)

// A fault that is not on a mapped log is not Guard's to turn into an error: memory that may not
// be read, mapped by the test itself, faults through Guard as it would without it.
func TestGuardOtherFault(t *testing.T) {
	b, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_NONE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		if _, ok := r.(interface{ Addr() uintptr }); !ok {
			t.Fatalf("recovered %v, want the fault itself", r)
		}
	}()
	Guard(func() error {
		sink = b[0]
		return nil
	})
	t.Fatal("the fault did not panic")
}

// sink keeps the read of TestGuardOtherFault from being left out.
var sink byte
