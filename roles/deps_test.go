package roles_test

import (
	"os/exec"
	"strings"
	"testing"
)

// roles is domain code (style.md §2): the rules of who sees what must not depend on the NATS
// client or server, nor on SQLite; the recorder adapts them to the server.
func TestImportsNoStore(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "github.com/fechado/fechado/roles").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 5 {
		t.Fatalf("go list found only %v", deps)
	}
	for _, d := range deps {
		for _, bad := range []string{"github.com/nats-io/", "github.com/mattn/go-sqlite3", "database/sql"} {
			if strings.HasPrefix(d, bad) {
				t.Errorf("roles depends on %s", d)
			}
		}
	}
}
