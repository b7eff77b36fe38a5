package audit_test

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// nocgoPackages are the domain packages: they must build without a C compiler (CGO_ENABLED=0),
// so that an audit runs from a plain `go build` on any platform; multisha, under cards and events,
// has a pure-Go fallback for that.
var nocgoPackages = []string{"./cards", "./events", "./rules", "./finding", "./handorder", "./audit", "./replay"}

// The domain packages and everything they import build with cgo off, and none of them then
// compiles a cgo file. Their tests run with CGO_ENABLED=0 too:
// CGO_ENABLED=0 go test ./cards/ ./events/ ./rules/ ./finding/ ./handorder/ ./audit/ ./replay/
func TestDomainBuildsWithoutCgo(t *testing.T) {
	env := append(os.Environ(), "CGO_ENABLED=0")
	build := exec.Command("go", append([]string{"build"}, nocgoPackages...)...)
	build.Dir, build.Env = "..", env
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build %s: %v\n%s", strings.Join(nocgoPackages, " "), err, out)
	}
	list := exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}"}, nocgoPackages...)...)
	list.Dir, list.Env = "..", env
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, files, _ := strings.Cut(line, " ")
		n++
		if files != "0" {
			t.Errorf("%s compiles %s cgo files with CGO_ENABLED=0", pkg, files)
		}
	}
	if n < len(nocgoPackages) {
		t.Fatalf("go list printed %d packages, fewer than the %d asked for", n, len(nocgoPackages))
	}
	// The check itself: with cgo on, on amd64, multisha does compile a cgo file.
	if runtime.GOARCH == "amd64" {
		list = exec.Command("go", "list", "-f", "{{len .CgoFiles}}", "./multisha")
		list.Dir, list.Env = "..", append(os.Environ(), "CGO_ENABLED=1")
		if out, err := list.Output(); err != nil || strings.TrimSpace(string(out)) == "0" {
			t.Errorf("with CGO_ENABLED=1 go list counts %q cgo files in multisha (%v): the check counts nothing", out, err)
		}
	}
}
