package main

import (
	"os"
	"testing"
)

// runAsMain is the environment variable that makes the test binary run fechado's main instead of
// the tests.
const runAsMain = "FECHADO_TEST_RUN_AS_MAIN"

// TestMain lets the test binary stand in for the fechado command when runAsMain is set, so a
// test that needs a real process (one it can kill) runs this very binary rather than building
// the command again: a second build, without the test's flags (-race), would compile every
// dependency once more.
func TestMain(m *testing.M) {
	if os.Getenv(runAsMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// asFechado returns the path of a program that is fechado: the running test binary, with
// runAsMain set in the environment of the processes the test starts (t.Setenv restores it).
func asFechado(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(runAsMain, "1")
	return exe
}
