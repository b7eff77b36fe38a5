package archtest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/fechado/fechado"

// The root folders of the module by role (docs/architecture.md, "The import graph").
//
// The domain is the vocabulary and the judgement of the game: it runs on a file, with neither the
// log's store nor the read models' database (style.md §2), so an audit needs nothing but Go.
var domain = []string{
	"cards", "events", "finding", "rules", "audit", "replay", "tournament", "explain", "lang",
	"report", "roles", "schema", "docs",
}

// The adapters connect the domain to the world: the log on NATS, the SQLite read models, the web
// server and the table console, the hand-history formats, the simulator's players. Each talks to
// the domain only; cmd wires them together.
var adapters = []string{"recorder", "projector", "web", "console", "handhistory", "sim"}

// The composition root and the plumbing: cmd may import anything, internal/ holds the speed and
// test helpers the others share.
var wiring = []string{"cmd", "internal"}

// stores are the packages that hold the log or the read models: no domain package depends on them,
// even indirectly.
var stores = []string{"github.com/nats-io/", "github.com/mattn/go-sqlite3", "database/sql"}

// adapterDebt lists the imports between adapters that today's tree still has, each with what it
// uses: the test tolerates these and no other, and fails when one is no longer there, so that the
// list only shrinks (issue 42: the log source is to be wired in cmd, not imported).
var adapterDebt = map[[2]string]string{
	{"projector", "recorder"}: "recorder.Log and Stored: the projector reads the log itself (LogSource)",
	{"web", "recorder"}:       "recorder.Log: the web server appends and reads hands (ingest, export)",
	{"web", "projector"}:      "projector.Live, Filter and the read models' queries behind the pages",
	{"console", "recorder"}:   "recorder.Log: the table console appends a live hand's events",
}

// pkg is what the test reads of go list -json for one package of the module.
type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string
	Error        *struct{ Err string }
}

// rel is a package's path inside the module ("events/internal/jsonlex"), or "" outside it.
func rel(path string) string {
	if path == module {
		return "."
	}
	if r, ok := strings.CutPrefix(path, module+"/"); ok {
		return r
	}
	return ""
}

// top is the root folder a module package lives under ("events" for events/internal/jsonlex).
func top(r string) string {
	t, _, _ := strings.Cut(r, "/")
	return t
}

func within(r, dir string) bool { return r == dir || strings.HasPrefix(r, dir+"/") }

// violations returns every import of pkgs the architecture does not allow, one sentence each.
func violations(pkgs []pkg) []string {
	var bad []string
	add := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	usedDebt := map[[2]string]bool{}
	for _, p := range pkgs {
		r := rel(p.ImportPath)
		if r == "" {
			continue
		}
		t := top(r)
		if !slices.Contains(domain, t) && !slices.Contains(adapters, t) && !slices.Contains(wiring, t) {
			add("%s: a root folder of no role: add %q to domain, adapters or wiring (and to docs/architecture.md)", r, t)
		}
		all := slices.Concat(p.Imports, p.TestImports, p.XTestImports)

		// No unsafe in the vocabulary: the only packages that may break Go's memory safety are the
		// small ones under internal/ whose invariant is written beside them.
		if slices.Contains(all, "unsafe") && !within(r, "internal") && !strings.Contains(r+"/", "/internal/") {
			add("%s imports unsafe: only packages under internal/ may", r)
		}

		// Only events reads the insides of events.
		for _, imp := range all {
			ir := rel(imp)
			if strings.HasPrefix(ir, "events/internal/") && !within(r, "events") {
				add("%s imports %s: only events imports events/internal/…", r, ir)
			}
		}

		switch {
		case slices.Contains(domain, t):
			// The domain depends on no store and no adapter, even through another package, in
			// its code. Its tests import no store either (they run on files), and of the adapters
			// only the simulator, which plays hands for them and depends on the domain alone.
			for _, d := range slices.Concat(p.Deps, all) {
				if dr := rel(d); dr != "" {
					dt := top(dr)
					testOnly := !slices.Contains(p.Deps, d) && !slices.Contains(p.Imports, d)
					if (slices.Contains(adapters, dt) && !(testOnly && dt == "sim")) || dt == "cmd" {
						add("%s depends on %s: the domain knows no adapter", r, dr)
					}
					continue
				}
				for _, s := range stores {
					if strings.HasPrefix(d, s) {
						add("%s depends on %s: the domain runs without NATS or SQLite", r, d)
					}
				}
			}
		case slices.Contains(adapters, t):
			// An adapter talks to the domain, not to another adapter (their tests, which are
			// integration tests, may). The web server shows the read models' findings; it does
			// not audit by itself.
			for _, imp := range p.Imports {
				ir := rel(imp)
				if ir == "" {
					continue
				}
				it := top(ir)
				if t == "web" && it == "audit" {
					add("web imports %s: the web server shows the findings the projector stored, it does not audit", ir)
				}
				if it != t && slices.Contains(adapters, it) {
					edge := [2]string{t, it}
					if _, ok := adapterDebt[edge]; ok {
						usedDebt[edge] = true
						continue
					}
					add("%s imports %s: adapters do not import one another (wire them in cmd)", r, ir)
				}
			}
		}
	}
	for edge, what := range adapterDebt {
		if !usedDebt[edge] {
			add("%s no longer imports %s (%s): remove it from adapterDebt", edge[0], edge[1], what)
		}
	}
	sort.Strings(bad)
	return slices.Compact(bad)
}

// root is the module's folder: two levels above this package's.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", dir, err)
	}
	return dir
}

// load lists every package of the module with its imports, through go list: what the go command
// itself builds, build tags and all.
func load(t *testing.T, env ...string) []pkg {
	t.Helper()
	// -e: a package that does not compile (another engineer's work in progress) still lists its
	// imports, and those still count.
	cmd := exec.Command("go", "list", "-e", "-deps=false",
		"-json=ImportPath,Imports,TestImports,XTestImports,Deps,Error", "./...")
	cmd.Dir, cmd.Env = root(t), append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list -json: %v", err)
		}
		if p.Error != nil {
			t.Logf("%s: %s (its imports still count)", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestImportsFollowTheArchitecture(t *testing.T) {
	pkgs := load(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[top(rel(p.ImportPath))] = true
	}
	for _, want := range slices.Concat(domain, adapters, wiring) {
		if !seen[want] {
			t.Errorf("go list found no package under %s/: the roles above name a folder that is gone", want)
		}
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
}

// The rules catch what they are there for, on a made-up module: one broken rule each.
func TestViolationsCatchEachRule(t *testing.T) {
	m := func(r string) string { return module + "/" + r }
	clean := []pkg{
		{ImportPath: m("events"), Imports: []string{m("events/internal/jsonlex"), m("cards")}},
		{ImportPath: m("audit"), Imports: []string{m("events")}, Deps: []string{m("events"), "fmt"}, XTestImports: []string{m("sim")}},
		{ImportPath: m("web"), Imports: []string{m("recorder"), m("projector"), m("report")}},
		{ImportPath: m("projector"), Imports: []string{m("recorder"), "database/sql"}},
		{ImportPath: m("console"), Imports: []string{m("recorder")}},
		{ImportPath: m("internal/multisha"), Imports: []string{"unsafe"}},
		{ImportPath: m("events/internal/alias"), Imports: []string{"unsafe"}},
		{ImportPath: "github.com/nats-io/nats.go", Imports: []string{"unsafe"}},
	}
	if v := violations(clean); len(v) != 0 {
		t.Fatalf("a module that keeps the rules gives %q", v)
	}
	for _, c := range []struct {
		rule string
		p    pkg
		want string
	}{
		{"web does not audit", pkg{ImportPath: m("web/live"), Imports: []string{m("audit")}}, "web imports audit"},
		{"domain: no store", pkg{ImportPath: m("rules"), Deps: []string{"github.com/mattn/go-sqlite3"}}, "rules depends on github.com/mattn/go-sqlite3"},
		{"domain: no adapter", pkg{ImportPath: m("replay"), Deps: []string{m("recorder")}}, "replay depends on recorder"},
		{"domain code: not even sim", pkg{ImportPath: m("rules"), Imports: []string{m("sim")}, Deps: []string{m("sim")}}, "rules depends on sim"},
		{"domain tests: no store adapter", pkg{ImportPath: m("audit"), TestImports: []string{m("projector")}}, "audit depends on projector"},
		{"domain tests: no store", pkg{ImportPath: m("audit"), XTestImports: []string{"database/sql"}}, "audit depends on database/sql"},
		{"no unsafe in the domain", pkg{ImportPath: m("events"), Imports: []string{"unsafe"}}, "events imports unsafe"},
		{"no unsafe in adapters", pkg{ImportPath: m("recorder"), TestImports: []string{"unsafe"}}, "recorder imports unsafe"},
		{"adapters apart", pkg{ImportPath: m("sim"), Imports: []string{m("handhistory")}}, "sim imports handhistory"},
		{"only events inside events", pkg{ImportPath: m("audit"), Imports: []string{m("events/internal/jsonlex")}}, "audit imports events/internal/jsonlex"},
		{"every root folder has a role", pkg{ImportPath: m("stuff")}, "stuff: a root folder of no role"},
	} {
		v := violations(append(slices.Clone(clean), c.p))
		if len(v) != 1 || !strings.HasPrefix(v[0], c.want) {
			t.Errorf("%s: got %q, want one violation starting %q", c.rule, v, c.want)
		}
	}
	// A debt paid is struck off the list.
	if v := violations(clean[:len(clean)-4]); !slices.ContainsFunc(v, func(s string) bool {
		return strings.HasPrefix(s, "console no longer imports recorder")
	}) {
		t.Errorf("a paid debt is not reported: %q", v)
	}
}

// nocgo lists the domain packages that must build without a C compiler (CGO_ENABLED=0), so that an
// audit runs from a plain go build on any platform; multisha, under cards and events, has a
// pure-Go fallback for that.
var nocgo = []string{"./cards", "./events", "./rules", "./finding", "./events/handorder", "./audit", "./replay", "./tournament", "./explain", "./report"}

// The domain packages and everything they import compile no cgo file with cgo off, and (without
// -short) they build so. The build compiles the standard library anew for CGO_ENABLED=0, some
// 30 s of CPU from a cold cache, which -short spares: the file lists below are the check.
func TestDomainBuildsWithoutCgo(t *testing.T) {
	dir := root(t)
	if !testing.Short() {
		build := exec.Command("go", append([]string{"build"}, nocgo...)...)
		build.Dir, build.Env = dir, append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("CGO_ENABLED=0 go build %s: %v\n%s", strings.Join(nocgo, " "), err, out)
		}
	}
	cgoFiles := func(cgo string, pkgs ...string) map[string]int {
		list := exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}"}, pkgs...)...)
		list.Dir, list.Env = dir, append(os.Environ(), "CGO_ENABLED="+cgo)
		out, err := list.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		n := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var p string
			var c int
			if _, err := fmt.Sscan(line, &p, &c); err != nil {
				t.Fatalf("go list printed %q: %v", line, err)
			}
			n[p] = c
		}
		return n
	}
	n := cgoFiles("0", nocgo...)
	for p, c := range n {
		if c != 0 {
			t.Errorf("%s compiles %d cgo files with CGO_ENABLED=0", p, c)
		}
	}
	if len(n) < len(nocgo) {
		t.Fatalf("go list printed %d packages, fewer than the %d asked for", len(n), len(nocgo))
	}
	// The check itself: with cgo on, on amd64, multisha does compile a cgo file.
	if c := cgoFiles("1", "./internal/multisha")[module+"/internal/multisha"]; c == 0 && runtime.GOARCH == "amd64" {
		t.Errorf("with CGO_ENABLED=1 go list counts no cgo file in multisha: the check counts nothing")
	}
}
