// Package browsertest starts the headless Chromium that the browser tests of web and console
// drive, with the options that keep it from reaching the network or keeping state between tests.
//
// The browser is found at $CHROME, else at /usr/bin/chromium (Debian's package, which `make
// chromium` installs), else as chromium or chromium-browser on PATH. Where there is none, a
// browser test skips with a message saying so, instead of failing: the rest of the suite still
// says something. A browser that is there but does not start is a failure.
//
// A test binary starts one browser (Tab, StopShared) and each test opens tabs in a browser context
// of its own: starting chromium costs more CPU than most of a test's pages. Screenshots are taken
// only where they outlive the test (ShotsKept).
//
// When $FECHADO_BROWSER_LOG names a file, each browser test adds a line to it, "ran" or
// "skipped" with the test's package and name (and why it skipped): make test prints them, so that
// a run says which browser tests it ran.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium is where Debian's chromium package installs the browser.
const Chromium = "/usr/bin/chromium"

// Find returns the path of the browser the tests drive: $CHROME, Chromium, or chromium (or
// chromium-browser) on PATH; an error saying where it looked when there is none.
func Find() (string, error) {
	if p := os.Getenv("CHROME"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("$CHROME is %s: %v", p, err)
		}
		return p, nil
	}
	if _, err := exec.LookPath(Chromium); err == nil {
		return Chromium, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Chromium: $CHROME is unset, %s does not exist and neither chromium nor chromium-browser is on PATH (`make chromium` installs Debian's)", Chromium)
}

// need returns the browser's path, or skips the test when there is none, and logs which.
func need(t testing.TB) string {
	t.Helper()
	p, err := Find()
	if err != nil {
		logRun(t, "skipped", err.Error())
		t.Skipf("browser test skipped: %v", err)
	}
	logRun(t, "ran", p)
	return p
}

// logRun adds a line to $FECHADO_BROWSER_LOG, when set. It writes through syscall rather than
// os, so that go test does not count the log among the files the test reads: it is output, and
// a test result stays cacheable.
func logRun(t testing.TB, what, detail string) {
	path := os.Getenv("FECHADO_BROWSER_LOG")
	if path == "" {
		return
	}
	wd, _ := os.Getwd()
	line := fmt.Sprintf("%s\t%s\t%s\t%s\n", what, filepath.Base(wd), t.Name(), detail)
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		t.Logf("browser log %s: %v", path, err)
		return
	}
	defer syscall.Close(fd)
	_, _ = syscall.Write(fd, []byte(line)) // one write of a short line: appends whole, beside other test binaries'
}

// New starts the browser with a window of width × height pixels, in a profile folder of its own,
// and returns its context, which ends after timeout or with the test. It skips the test when
// there is no browser (Find).
func New(t testing.TB, width, height int, timeout time.Duration) context.Context {
	t.Helper()
	exe := need(t)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), allocatorOptions(exe, t.TempDir(), width, height)...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		cancelT()
		cancel()
		cancelA()
	})
	failOnCSPViolation(t, ctx)
	return ctx
}
