package events

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The domain packages run on a file with neither NATS nor SQLite (style.md §2): none of them may
// depend, even indirectly, on the NATS client or server, on SQLite, or on database/sql.
var domainPackages = []string{"events", "cards", "rules", "finding", "handorder", "audit", "replay", "roles"}

var forbiddenDeps = []string{"github.com/nats-io/", "github.com/mattn/go-sqlite3", "database/sql"}

// hasGoFiles reports whether dir holds a non-test Go file, i.e. the package exists.
func hasGoFiles(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			return true
		}
	}
	return false
}

func TestDomainPackagesImportNoStore(t *testing.T) {
	const module = "github.com/fechado/fechado/"
	var pkgs []string
	for _, p := range domainPackages {
		if hasGoFiles(filepath.Join("..", p)) {
			pkgs = append(pkgs, module+p)
		}
	}
	if len(pkgs) < 2 {
		t.Fatalf("found only %v", pkgs)
	}
	// The check itself: a package that is SQL is caught.
	if bad := storeDeps(t, "database/sql"); len(bad) == 0 {
		t.Fatal("storeDeps does not catch database/sql")
	}
	for _, p := range pkgs {
		for _, d := range storeDeps(t, p) {
			t.Errorf("%s depends on %s: the domain packages must run without NATS or SQLite", p, d)
		}
	}
}

// storeDeps returns the forbidden packages among the dependencies of pkg (pkg included).
func storeDeps(t *testing.T, pkg string) []string {
	t.Helper()
	// -e: a package another engineer is editing may not compile; its imports still count.
	cmd := exec.Command("go", "list", "-e", "-deps", "-f", "{{.ImportPath}}", pkg)
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, msg)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != pkg {
		t.Fatalf("go list -deps %s printed %d packages, not ending with %s", pkg, len(deps), pkg)
	}
	var bad []string
	for _, d := range deps {
		for _, f := range forbiddenDeps {
			if strings.HasPrefix(d, f) {
				bad = append(bad, d)
			}
		}
	}
	return bad
}
