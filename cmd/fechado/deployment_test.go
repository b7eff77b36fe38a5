package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/roles"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"golang.org/x/crypto/bcrypt"
)

// The documented deployment (docs/deployment.md) run as written: its configuration files are
// docs/deployment/*.conf, copied as they are; what differs between deployments comes from the
// environment variables its nats.env names, which the tests set (random loopback ports, folders
// under the test's own, passwords of their own); its commands are run by sh as the doc writes
// them, with fechado and nats-server on the PATH.

// deploymentDir is the repository's folder of the documented configuration.
const deploymentDir = "../../docs/deployment"

// The doc's commands, each a line of docs/deployment.md (checked by docCommand).
const (
	buildNATSCmd = `go build -o bin/nats-server github.com/nats-io/nats-server/v2`
	loadEnvCmd   = `set -a; . /etc/nats/nats.env; set +a`
	startNodeCmd = `nats-server -c /etc/nats/n1.conf`
	setupCmd     = `fechado init --nats "$FECHADO_NATS" --user fechado-admin --password "$ADMIN_PASSWORD" --replicas 3`
	recordCmd    = `fechado record --nats "$FECHADO_NATS" --user fechado --password "$FECHADO_PASSWORD" hands.jsonl`
	verifyCmd    = `fechado verify --nats "$FECHADO_NATS" --user fechado --password "$FECHADO_PASSWORD"`
	serveCmd     = `fechado serve --nats "$FECHADO_NATS" --user fechado --password "$FECHADO_PASSWORD" --db /var/lib/fechado/fechado.db --http 0.0.0.0:8080 --auth /etc/fechado/devices.json`
	auditAllCmd  = `fechado audit --all --json --nats "$FECHADO_NATS" --user auditor --password "$AUDITOR_PASSWORD"`
)

// docCommand returns cmd after checking that docs/deployment.md gives it as it is (a line of a
// code block, continuation lines joined).
func docCommand(t *testing.T, cmd string) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/deployment.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := regexp.MustCompile(`\\\n\s+`).ReplaceAllString(string(b), "")
	if !strings.Contains(doc, cmd) {
		t.Fatalf("docs/deployment.md does not give the command the test runs:\n%s", cmd)
	}
	return cmd
}

// confVariable matches a variable reference of nats-server's configuration: an unquoted $NAME
// after a key's colon (the subjects, "$JS.API…", are quoted strings).
var confVariable = regexp.MustCompile(`(?m):\s*\$([A-Z][A-Z0-9_]*)\b`)

// docEnvBlock returns the variables the doc's nats.env block sets (its lines NAME=…).
func docEnvBlock(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../docs/deployment.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(b), "# nats.env\n")
	if !ok {
		t.Fatal("docs/deployment.md has no nats.env block")
	}
	block, _, _ = strings.Cut(block, "```")
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^([A-Z][A-Z0-9_]*)=`).FindAllStringSubmatch(block, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names
}

// confVariables returns the environment variables the documented configuration files refer to.
func confVariables(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range []string{"n1.conf", "n2.conf", "n3.conf", "fechado.conf"} {
		b, err := os.ReadFile(filepath.Join(deploymentDir, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			line, _, _ = strings.Cut(line, "#") // comments may show values; no value holds a #
			for _, m := range confVariable.FindAllStringSubmatch(line, -1) {
				seen[m[1]] = true
			}
		}
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// The doc's nats.env names every variable the configuration files refer to, and nothing else:
// copying the doc's env file and the four configuration files gives a server that starts.
func TestDeploymentDocNamesEveryVariableOfItsConfiguration(t *testing.T) {
	conf, doc := confVariables(t), docEnvBlock(t)
	if len(conf) < 10 {
		t.Fatalf("the configuration refers to %d variables (%v): the files were not read as meant", len(conf), conf)
	}
	if !slices.Equal(conf, doc) {
		t.Fatalf("the configuration refers to %v, the doc's nats.env sets %v", conf, doc)
	}
}

// secrets are one deployment's passwords: clear for the clients, bcrypt for the server.
type secrets struct {
	route                                  string
	fechado, admin, dealer, auditor, lobby string
}

func randomWord(t *testing.T) string {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "w" + hex.EncodeToString(b) // a letter first: nats-server would read digits alone as a number
}

func newSecrets(t *testing.T) secrets {
	return secrets{route: randomWord(t), fechado: randomWord(t), admin: randomWord(t),
		dealer: randomWord(t), auditor: randomWord(t), lobby: randomWord(t)}
}

// hash is what `fechado passwd` gives for a password: its bcrypt hash, at the cost nats-server's
// own tool uses.
func hash(t *testing.T, clear string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(clear), 11)
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

// nodeEnv is the environment of nats.env for one node on loopback: its own ports and folder,
// the deployment's route list and password hashes.
type nodeEnv struct {
	client, http, cluster int
	store                 string
}

func (s secrets) env(t *testing.T, n nodeEnv, clusterPorts []int, hashes map[string]string) []string {
	var routes []string
	for _, p := range clusterPorts {
		routes = append(routes, fmt.Sprintf("%q", fmt.Sprintf("nats-route://route:%s@127.0.0.1:%d", s.route, p)))
	}
	env := []string{
		fmt.Sprintf("NATS_LISTEN=127.0.0.1:%d", n.client),
		fmt.Sprintf("NATS_HTTP=127.0.0.1:%d", n.http),
		fmt.Sprintf("NATS_CLUSTER_LISTEN=127.0.0.1:%d", n.cluster),
		"NATS_STORE_DIR=" + n.store,
		"NATS_ROUTE_PASSWORD=" + s.route,
		"NATS_ROUTES=[" + strings.Join(routes, ",") + "]",
	}
	for _, k := range hashKeys {
		env = append(env, k+"="+hashes[k])
	}
	return env
}

func (s secrets) hashes(t *testing.T) map[string]string {
	return map[string]string{
		"FECHADO_HASH": hash(t, s.fechado), "FECHADO_ADMIN_HASH": hash(t, s.admin),
		"DEALER_T1_HASH": hash(t, s.dealer), "AUDITOR_HASH": hash(t, s.auditor), "LOBBY_HASH": hash(t, s.lobby),
	}
}

// hashKeys are the variables of nats.env that hold the users' password hashes.
var hashKeys = []string{"FECHADO_HASH", "FECHADO_ADMIN_HASH", "DEALER_T1_HASH", "AUDITOR_HASH", "LOBBY_HASH"}

// fakeHashes are bcrypt-shaped values, a different one for each user, for tests that only parse
// the configuration (a real hash costs a tenth of a second).
func fakeHashes() map[string]string {
	h := map[string]string{}
	for i, k := range hashKeys {
		h[k] = "$2a$11$" + strings.Repeat(string(rune('a'+i)), 53)
	}
	return h
}

// loadNodeConfig parses node n1's documented configuration as nats-server does, with env.
func loadNodeConfig(t *testing.T, env []string) *server.Options {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	opts, err := server.ProcessConfigFile(filepath.Join(deploymentDir, "n1.conf"))
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

// The route password in effect is the deployment's own, from the environment: nats-server reads
// the documented file's cluster password and every route URL's password from NATS_ROUTE_PASSWORD
// and NATS_ROUTES, never the literal text "$ROUTE_PASSWORD" the doc once had in quoted strings;
// and without the variable the file does not load at all.
func TestDeploymentRoutePasswordComesFromTheEnvironment(t *testing.T) {
	s := newSecrets(t)
	hashes := fakeHashes()
	env := s.env(t, nodeEnv{client: 4222, http: 8222, cluster: 6222, store: t.TempDir()}, []int{6222, 6223, 6224}, hashes)
	opts := loadNodeConfig(t, env)
	if opts.ServerName != "n1" || opts.Cluster.Name != "FECHADO" || opts.Cluster.Port != 6222 || opts.StoreDir == "" {
		t.Fatalf("n1.conf: server %q, cluster %q port %d, store %q", opts.ServerName, opts.Cluster.Name, opts.Cluster.Port, opts.StoreDir)
	}
	if opts.Cluster.Username != "route" || opts.Cluster.Password != s.route {
		t.Fatalf("cluster authorization: user %q password %q, want route / the deployment's %q", opts.Cluster.Username, opts.Cluster.Password, s.route)
	}
	if len(opts.Routes) != 3 {
		t.Fatalf("%d routes, want 3", len(opts.Routes))
	}
	for _, r := range opts.Routes {
		if p, _ := r.User.Password(); r.User.Username() != "route" || p != s.route {
			t.Fatalf("route %s: user %q password %q, want route / %q", r.Host, r.User.Username(), p, s.route)
		}
	}
	hashOf := map[string]string{"fechado": "FECHADO_HASH", "fechado-admin": "FECHADO_ADMIN_HASH",
		"dealer-t1": "DEALER_T1_HASH", "auditor": "AUDITOR_HASH", "lobby": "LOBBY_HASH"}
	for _, u := range opts.Users {
		if u.Password != hashes[hashOf[u.Username]] {
			t.Fatalf("user %s: password %q, want its hash from the environment", u.Username, u.Password)
		}
	}

	os.Unsetenv("NATS_ROUTE_PASSWORD") // t.Setenv above restores it
	if _, err := server.ProcessConfigFile(filepath.Join(deploymentDir, "n1.conf")); err == nil || !strings.Contains(err.Error(), "NATS_ROUTE_PASSWORD") {
		t.Fatalf("without NATS_ROUTE_PASSWORD the file loaded (err %v): a node would run with some other password", err)
	}
}

// The documented users have the permissions fechado's roles give them (roles.User.Permissions,
// the one source): the table device, the auditor and the room screen as their roles say; fechado's
// own user and the set-up user denied every stream API that removes or rewrites history, and
// fechado's user stream creation too; the set-up user allowed to create only the log's three
// streams.
func TestDeploymentUsersHaveTheirRolesPermissions(t *testing.T) {
	s := newSecrets(t)
	hashes := fakeHashes()
	opts := loadNodeConfig(t, s.env(t, nodeEnv{client: 4222, http: 8222, cluster: 6222, store: t.TempDir()}, []int{6222}, hashes))
	got := map[string]*server.User{}
	for _, u := range opts.Users {
		if u.Account == nil || u.Account.Name != "FECHADO" {
			t.Fatalf("user %s is not in account FECHADO", u.Username)
		}
		got[u.Username] = u
	}
	if len(got) != 5 {
		t.Fatalf("%d users, want fechado, fechado-admin, dealer-t1, auditor, lobby", len(got))
	}
	sameSet := func(who, what string, got, want []string) {
		t.Helper()
		g, w := slices.Clone(got), slices.Clone(want)
		slices.Sort(g)
		slices.Sort(w)
		if !slices.Equal(g, w) {
			t.Errorf("%s %s: %v, want %v", who, what, got, want)
		}
	}
	rule := func(p *server.SubjectPermission) roles.SubjectRule {
		if p == nil {
			return roles.SubjectRule{}
		}
		return roles.SubjectRule{Allow: p.Allow, Deny: p.Deny}
	}
	for _, ru := range []roles.User{
		{Name: "dealer-t1", Role: roles.Table, Table: "t1"},
		{Name: "auditor", Role: roles.Auditor},
		{Name: "lobby", Role: roles.Spectator},
	} {
		want := recorder.ServerUsers(&roles.Auth{Users: []roles.User{ru}})[0].Permissions
		u := got[ru.Name]
		if u == nil || u.Permissions == nil {
			t.Fatalf("no user %s with permissions", ru.Name)
		}
		pub, sub := rule(u.Permissions.Publish), rule(u.Permissions.Subscribe)
		wpub, wsub := rule(want.Publish), rule(want.Subscribe)
		sameSet(ru.Name, "publish allow", pub.Allow, wpub.Allow)
		sameSet(ru.Name, "publish deny", pub.Deny, wpub.Deny)
		sameSet(ru.Name, "subscribe allow", sub.Allow, wsub.Allow)
		sameSet(ru.Name, "subscribe deny", sub.Deny, wsub.Deny)
	}

	// The history APIs every role is denied, and fechado's own user on the embedded server (roles'
	// one list: a restore creates a stream, a peer removed takes a replica of the history away).
	history := roles.HistoryAPIs()
	for _, s := range []string{"$JS.API.STREAM.RESTORE.>", "$JS.API.STREAM.PEER.REMOVE.>"} {
		if !slices.Contains(history, s) {
			t.Errorf("roles.HistoryAPIs lacks %s", s)
		}
	}
	if auditor := (roles.User{Role: roles.Auditor}).Permissions().Publish.Deny; !slices.Equal(auditor, history) {
		t.Errorf("an auditor is denied %v, want the history APIs %v", auditor, history)
	}
	app := got["fechado"]
	if app.Permissions == nil || app.Permissions.Publish == nil || len(app.Permissions.Publish.Allow) != 0 {
		t.Fatalf("fechado: %+v, want a publish deny list only", app.Permissions)
	}
	for _, s := range history {
		if !slices.Contains(app.Permissions.Publish.Deny, s) {
			t.Errorf("fechado may publish %s", s)
		}
	}
	admin := got["fechado-admin"]
	if admin.Permissions == nil || admin.Permissions.Publish == nil {
		t.Fatal("fechado-admin has no publish permissions: it may do anything")
	}
	for _, s := range history {
		if s != "$JS.API.STREAM.CREATE.>" && !slices.Contains(admin.Permissions.Publish.Deny, s) {
			t.Errorf("fechado-admin may publish %s", s)
		}
	}
	var creates []string
	for _, s := range admin.Permissions.Publish.Allow {
		if strings.HasPrefix(s, "$JS.API.STREAM.CREATE.") {
			creates = append(creates, s)
		}
		if strings.Contains(s, "*") || strings.HasSuffix(s, "$JS.API.>") || s == ">" {
			t.Errorf("fechado-admin's allow list has the wildcard %s", s)
		}
	}
	sameSet("fechado-admin", "stream creation", creates, []string{
		"$JS.API.STREAM.CREATE." + recorder.StreamName, "$JS.API.STREAM.CREATE." + checkpoint.StreamName})
}

// buildNATSServer builds nats-server from this module with the doc's command, its output in a
// folder of the test's own rather than the repository's bin/ (the build cache makes it a link).
func buildNATSServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "nats-server")
	cmd := exec.Command("sh", "-c", strings.Replace(docCommand(t, buildNATSCmd), "bin/nats-server", bin, 1))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", buildNATSCmd, err, out)
	}
	return bin
}

// docCluster is the documented three-node cluster on loopback: three nats-server processes, each
// started from its nX.conf of the repository with its own nats.env, and a folder where the doc's
// commands run.
type docCluster struct {
	t       *testing.T
	dir     string // the commands' working folder (hands.jsonl lives here)
	bin     string // nats-server
	conf    string // the copy of docs/deployment
	secrets secrets
	env     []string // the commands' environment: FECHADO_NATS and the clear passwords
	urls    []string
	nodes   []*docNode
	// fechadoPath is fechado on the commands' PATH.
	fechadoPath string
}

type docNode struct {
	name string
	env  []string
	http int
	cmd  *exec.Cmd
	log  string
}

// freeLoopbackPorts asks the OS for n free loopback ports (the nodes must name each other's
// route ports before they start).
func freeLoopbackPorts(t *testing.T, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// startDocCluster copies docs/deployment, starts its three nodes and waits until each reports
// itself healthy (JetStream current with a meta leader).
func startDocCluster(t *testing.T) *docCluster {
	t.Helper()
	bin := buildNATSServer(t)
	c := &docCluster{t: t, dir: t.TempDir(), bin: bin, conf: filepath.Join(t.TempDir(), "nats"), secrets: newSecrets(t)}
	if err := os.CopyFS(c.conf, os.DirFS(deploymentDir)); err != nil {
		t.Fatal(err)
	}
	hashes := c.secrets.hashes(t)
	ports := freeLoopbackPorts(t, 9)
	clusterPorts := ports[6:9]
	var urls []string
	for i := range 3 {
		n := &docNode{name: fmt.Sprintf("n%d", i+1), http: ports[3+i], log: filepath.Join(c.dir, fmt.Sprintf("n%d.log", i+1))}
		n.env = c.secrets.env(t, nodeEnv{client: ports[i], http: ports[3+i], cluster: clusterPorts[i],
			store: filepath.Join(c.dir, "store-"+n.name)}, clusterPorts, hashes)
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
		c.nodes = append(c.nodes, n)
	}
	// fechado on the PATH is this test binary (asFechado), nats-server the one just built.
	pathDir := t.TempDir()
	for name, target := range map[string]string{"fechado": asFechado(t), "nats-server": bin} {
		if err := os.Symlink(target, filepath.Join(pathDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	c.urls, c.fechadoPath = urls, filepath.Join(pathDir, "fechado")
	c.env = append(os.Environ(), "PATH="+pathDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FECHADO_NATS="+strings.Join(urls, ","),
		"FECHADO_PASSWORD="+c.secrets.fechado, "ADMIN_PASSWORD="+c.secrets.admin,
		"AUDITOR_PASSWORD="+c.secrets.auditor)
	t.Cleanup(func() {
		for i := range c.nodes {
			c.stop(i)
		}
		if t.Failed() {
			for _, n := range c.nodes {
				b, _ := os.ReadFile(n.log)
				t.Logf("%s's log (last 3000 bytes):\n%s", n.name, tail(b, 3000))
			}
		}
	})
	for i := range c.nodes {
		c.start(i)
	}
	for i := range c.nodes {
		c.waitHealthy(i)
	}
	return c
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// start runs the doc's command for node i: nats-server -c nX.conf, with its nats.env.
func (c *docCluster) start(i int) {
	c.t.Helper()
	n := c.nodes[i]
	logf, err := os.OpenFile(n.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		c.t.Fatal(err)
	}
	defer logf.Close()
	// The node's nats.env, written as the doc writes it (NAME='value'), read by the doc's own
	// command line: sh keeps the $ of the hashes because of the single quotes.
	var env strings.Builder
	for _, kv := range n.env {
		k, v, _ := strings.Cut(kv, "=")
		if strings.Contains(v, "'") {
			c.t.Fatalf("%s holds a single quote", k)
		}
		fmt.Fprintf(&env, "%s='%s'\n", k, v)
	}
	if err := os.WriteFile(filepath.Join(c.conf, n.name+".env"), []byte(env.String()), 0o600); err != nil {
		c.t.Fatal(err)
	}
	load := strings.Replace(docCommand(c.t, loadEnvCmd), "/etc/nats/nats.env", "./"+n.name+".env", 1)
	start := strings.Replace(docCommand(c.t, startNodeCmd), "/etc/nats/n1.conf", n.name+".conf", 1)
	n.cmd = exec.Command("sh", "-c", load+"; exec "+start)
	n.cmd.Dir = c.conf
	n.cmd.Env = c.env
	n.cmd.Stdout, n.cmd.Stderr = logf, logf
	if err := n.cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
}

// kill ends node i at once (SIGKILL, as a crash): its store is left as it was.
func (c *docCluster) kill(i int) {
	n := c.nodes[i]
	if n.cmd == nil {
		return
	}
	_ = n.cmd.Process.Signal(syscall.SIGKILL)
	_ = n.cmd.Wait()
	n.cmd = nil
}

// stop ends node i as an operator would (SIGTERM), then kills it if it is still there.
func (c *docCluster) stop(i int) {
	n := c.nodes[i]
	if n.cmd == nil {
		return
	}
	_ = n.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = n.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = n.cmd.Process.Signal(syscall.SIGKILL)
		<-done
	}
	n.cmd = nil
}

// monitor GETs a path of node i's monitoring endpoint and decodes its JSON into v.
func (c *docCluster) monitor(i int, path string, v any) error {
	cl := http.Client{Timeout: 5 * time.Second}
	resp, err := cl.Get(fmt.Sprintf("http://127.0.0.1:%d%s", c.nodes[i].http, path))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", path, resp.Status, b)
	}
	return json.Unmarshal(b, v)
}

func (c *docCluster) waitHealthy(i int) {
	c.t.Helper()
	waitUntil(c.t, 60*time.Second, c.nodes[i].name+" healthy", func() bool {
		var h map[string]any
		return c.monitor(i, "/healthz", &h) == nil
	})
}

func waitUntil(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v still waiting for %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// run runs a command line with sh in the commands' folder, and returns its standard output,
// standard error and exit status.
func (c *docCluster) run(ctx context.Context, command string) (stdout, stderr string, code int) {
	c.t.Helper()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir, cmd.Env = c.dir, c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		c.t.Fatalf("%s: %v", command, err)
	}
	return out.String(), errb.String(), code
}

// mustRun runs one of the doc's commands, which must exit 0.
func (c *docCluster) mustRun(ctx context.Context, command string) string {
	c.t.Helper()
	out, errs, code := c.run(ctx, docCommand(c.t, command))
	if code != 0 {
		c.t.Fatalf("%s: exit %d\n%s%s", command, code, out, errs)
	}
	return out
}

// fechado runs fechado (not a command of the doc: the test's own steps) in the commands' folder
// and returns its standard output and exit status.
func (c *docCluster) fechado(ctx context.Context, args ...string) (string, int) {
	c.t.Helper()
	cmd := exec.CommandContext(ctx, c.fechadoPath, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	}
	c.t.Fatalf("fechado %v: %v\n%s", args, err, errb.String())
	return "", 0
}

// connect opens a NATS connection to node i as user, recording the server's permission
// violations on errs.
func (c *docCluster) connect(i int, user, password string, errs chan<- error) *nats.Conn {
	c.t.Helper()
	url := c.urls[i]
	opts := []nats.Option{nats.UserInfo(user, password), nats.Name("deployment-test-" + user),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			select {
			case errs <- err:
			default:
			}
		})}
	if user == "dealer-t1" {
		opts = append(opts, nats.CustomInboxPrefix(roles.InboxPrefix(user)))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		c.t.Fatalf("connecting as %s: %v", user, err)
	}
	c.t.Cleanup(nc.Close)
	return nc
}

// streams returns the streams of account FECHADO as node i's own monitoring endpoint shows them
// (no NATS user is needed, and none could delete anything through it).
func (c *docCluster) streams(i int) map[string]server.StreamDetail {
	c.t.Helper()
	var jsz server.JSInfo
	if err := c.monitor(i, "/jsz?accounts=true&streams=true&config=true", &jsz); err != nil {
		c.t.Fatal(err)
	}
	out := map[string]server.StreamDetail{}
	for _, a := range jsz.AccountDetails {
		if a.Name != "FECHADO" {
			continue
		}
		for _, s := range a.Streams {
			out[s.Name] = s
		}
	}
	return out
}

// apiRefused sends a JetStream API request as nc's user and reports whether the server refused
// its publish as a permissions violation; otherwise it returns the server's answer.
func apiRefused(t *testing.T, nc *nats.Conn, errs chan error, subject string, body []byte) (bool, string) {
	t.Helper()
	for len(errs) > 0 {
		<-errs
	}
	violation := fmt.Sprintf("Permissions Violation for Publish to %q", subject)
	type answer struct {
		m   *nats.Msg
		err error
	}
	answers := make(chan answer, 1)
	go func() {
		m, err := nc.Request(subject, body, 5*time.Second)
		answers <- answer{m, err}
	}()
	for {
		select {
		case a := <-answers:
			if a.err == nil {
				return false, string(a.m.Data)
			}
			if strings.Contains(a.err.Error(), violation) {
				return true, ""
			}
			// No answer: the violation may still be on its way to the error handler.
			select {
			case e := <-errs:
				if strings.Contains(e.Error(), violation) {
					return true, ""
				}
			case <-time.After(2 * time.Second):
			}
			return false, "no answer and no permissions violation: " + a.err.Error()
		case e := <-errs:
			if strings.Contains(e.Error(), violation) {
				return true, ""
			}
		}
	}
}

// checkStreams checks node i's own copy of the log as the set-up creates it: the account holds
// FECHADO_HANDS and the checkpoint stream and nothing else (no hand index: stream.md §4), both on
// three nodes,
// the log and the checkpoints with deletes and purges denied, the log with wantMsgs events from
// sequence 1, none deleted.
func (c *docCluster) checkStreams(i int, wantMsgs uint64) {
	c.t.Helper()
	st := c.streams(i)
	if len(st) != 2 {
		var names []string
		for n := range st {
			names = append(names, n)
		}
		c.t.Fatalf("%s: streams %v, want %s and %s only", c.nodes[i].name, names, recorder.StreamName, checkpoint.StreamName)
	}
	if cp := st[checkpoint.StreamName]; cp.Config == nil || cp.Config.Replicas != 3 || !cp.Config.DenyDelete || !cp.Config.DenyPurge {
		c.t.Fatalf("%s: the checkpoint stream is not on three nodes with deletes and purges denied: %+v", c.nodes[i].name, cp.Config)
	}
	h, ok := st[recorder.StreamName]
	if !ok || h.Config == nil {
		c.t.Fatalf("%s: no %s", c.nodes[i].name, recorder.StreamName)
	}
	if h.Config.Replicas != 3 || !h.Config.DenyDelete || !h.Config.DenyPurge {
		c.t.Fatalf("%s: %s replicas %d deny delete %v purge %v", c.nodes[i].name, h.Name, h.Config.Replicas, h.Config.DenyDelete, h.Config.DenyPurge)
	}
	if h.State.Msgs != wantMsgs || h.State.LastSeq != wantMsgs || h.State.NumDeleted != 0 {
		c.t.Fatalf("%s: %s state %+v, want %d messages, none deleted", c.nodes[i].name, h.Name, h.State, wantMsgs)
	}
}

func countLines(t *testing.T, path string) uint64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(bytes.Count(b, []byte("\n")))
}

// docs/deployment.md run as written on three real nats-server processes: the set-up user creates
// the log, fechado records and verifies as its own user, an auditor audits the stored log as the
// file; then no user of the documented configuration can delete, purge, update or restore a
// stream or delete a message, none but the set-up user can create a stream, and the set-up user
// only the log's own three, which exist (creating one again with another configuration is refused,
// not an update): every node still holds every event, under the same configuration. And the
// route password in effect is the deployment's own: a node set up as the doc once said (the
// literal "$ROUTE_PASSWORD") is refused, the same node with the deployment's password joins.
func TestDeploymentAsDocumentedRefusesStreamChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("three nats-server processes: a long test (make test-long, go test without -short)")
	}
	c := startDocCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	setup := c.mustRun(ctx, setupCmd)
	t.Logf("set-up: %s", setup)
	for i := range c.nodes {
		c.checkStreams(i, 0)
	}
	if out, code := c.fechado(ctx, "sim", "--rules", "br-fechado", "--players", "4", "--hands", "40", "--seed", "7", "--inject", "bet.amount,deck.duplicate-card,table.stack,pot.total", "--out", "hands.jsonl"); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, out)
	}
	events := countLines(t, filepath.Join(c.dir, "hands.jsonl"))
	c.mustRun(ctx, recordCmd)
	c.mustRun(ctx, verifyCmd)
	stored, storedCode := c.run3(ctx, auditAllCmd)
	file, fileCode := c.fechado(ctx, "audit", "--json", "hands.jsonl")
	if stored != file || storedCode != fileCode || file == "" {
		t.Fatalf("audit --all (exit %d):\n%s\naudit of the file (exit %d):\n%s", storedCode, stored, fileCode, file)
	}
	for i := range c.nodes {
		waitUntil(t, 20*time.Second, c.nodes[i].name+" to hold every event", func() bool {
			return c.streams(i)[recorder.StreamName].State.Msgs == events
		})
		c.checkStreams(i, events)
	}

	events += c.serveWhileRecording(ctx, 40)

	users := []struct{ name, password string }{
		{"fechado", c.secrets.fechado}, {"fechado-admin", c.secrets.admin}, {"dealer-t1", c.secrets.dealer},
		{"auditor", c.secrets.auditor}, {"lobby", c.secrets.lobby},
	}
	update := recorder.StreamConfig(3)
	update.DenyDelete, update.DenyPurge = false, false
	updateBody, _ := json.Marshal(update)
	evilBody, _ := json.Marshal(map[string]any{"name": "EVIL", "subjects": []string{"evil.>"}, "num_replicas": 1})
	requests := []struct{ subject, body string }{
		{"$JS.API.STREAM.DELETE." + recorder.StreamName, ""},
		{"$JS.API.STREAM.DELETE." + checkpoint.StreamName, ""},
		{"$JS.API.STREAM.CREATE.EVIL", string(evilBody)},
		{"$JS.API.STREAM.UPDATE." + recorder.StreamName, string(updateBody)},
		{"$JS.API.STREAM.PURGE." + recorder.StreamName, ""},
		{"$JS.API.STREAM.MSG.DELETE." + recorder.StreamName, `{"seq":1}`},
		{"$JS.API.STREAM.RESTORE." + recorder.StreamName, string(updateBody)},
	}
	for ui, u := range users {
		errs := make(chan error, 64)
		nc := c.connect(ui%3, u.name, u.password, errs)
		for _, r := range requests {
			if ok, answer := apiRefused(t, nc, errs, r.subject, []byte(r.body)); !ok {
				t.Errorf("%s: %s was not refused: %s", u.name, r.subject, answer)
			}
		}
		if u.name == "fechado-admin" {
			// The set-up user may create the log's streams, which exist: asking again with a
			// configuration that lets events be deleted is an error, and changes nothing.
			ok, answer := apiRefused(t, nc, errs, "$JS.API.STREAM.CREATE."+recorder.StreamName, updateBody)
			if ok || !strings.Contains(answer, `"err_code":10058`) {
				t.Errorf("fechado-admin creating %s again with deletes allowed: refused by permissions %v, answer %s; want JetStream error 10058", recorder.StreamName, ok, answer)
			}
		}
	}
	for i := range c.nodes {
		c.checkStreams(i, events)
	}
	c.mustRun(ctx, verifyCmd)

	// The route password: a fourth node configured as docs/deployment.md once said, its
	// password the literal text "$ROUTE_PASSWORD" in quoted strings, is refused by n1; the same
	// node with the deployment's password joins n1.
	joins := func(name, password string) bool {
		t.Helper()
		ports := freeLoopbackPorts(t, 1)
		conf := filepath.Join(c.dir, name+".conf")
		n1Cluster := strings.TrimPrefix(envValue(c.nodes[0].env, "NATS_CLUSTER_LISTEN"), "127.0.0.1:")
		text := fmt.Sprintf(`server_name: %s
listen: "127.0.0.1:-1"
cluster {
  name: FECHADO
  listen: "127.0.0.1:%d"
  authorization { user: route, password: "%s" }
  routes: [ "nats-route://route:%s@127.0.0.1:%s" ]
}
`, name, ports[0], password, password, n1Cluster)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		logPath := filepath.Join(c.dir, name+".log")
		logf, err := os.Create(logPath)
		if err != nil {
			t.Fatal(err)
		}
		defer logf.Close()
		cmd := exec.Command(c.bin, "-c", conf)
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Signal(syscall.SIGKILL); _ = cmd.Wait() }()
		var joined bool
		waitUntil(t, 30*time.Second, name+" to join n1 or be refused", func() bool {
			var rz server.Routez
			if err := c.monitor(0, "/routez", &rz); err != nil {
				t.Fatal(err)
			}
			for _, r := range rz.Routes {
				if r.RemoteName == name {
					joined = true
					return true
				}
			}
			b, _ := os.ReadFile(logPath)
			return bytes.Contains(b, []byte("Authorization Violation"))
		})
		return joined
	}
	if joins("intruder", "$ROUTE_PASSWORD") {
		t.Error(`a node with the route password "$ROUTE_PASSWORD" joined the documented cluster`)
	}
	if !joins("newcomer", c.secrets.route) {
		t.Error("a node with the deployment's route password was refused: the refusal above proves nothing")
	}

	// The set-up user removed after the set-up, as the doc allows: its block taken out of
	// fechado.conf and each node reloaded (SIGHUP); then it cannot connect, and fechado still can.
	confPath := filepath.Join(c.conf, "fechado.conf")
	b, err := os.ReadFile(confPath)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(b, []byte("      # The set-up user"))
	end := bytes.Index(b, []byte("      # A table device"))
	if start < 0 || end < start {
		t.Fatal("fechado.conf: the set-up user's block is not where the test looks for it")
	}
	if err := os.WriteFile(confPath, append(b[:start:start], b[end:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, n := range c.nodes {
		if err := n.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		var reload string
		waitUntil(t, 20*time.Second, n.name+" to reload its configuration", func() bool {
			b, _ := os.ReadFile(n.log)
			m := regexp.MustCompile(`(?m)^.*(Reloaded server configuration|Failed to reload server configuration).*$`).Find(b)
			reload = string(m)
			return m != nil
		})
		if strings.Contains(reload, "Failed") {
			t.Fatalf("%s: %s", n.name, reload)
		}
		waitUntil(t, 20*time.Second, n.name+" to refuse the removed set-up user", func() bool {
			// Only this node: the client would otherwise go on to the servers n1 announced.
			nc, err := nats.Connect(c.urls[i], nats.UserInfo("fechado-admin", c.secrets.admin),
				nats.NoReconnect(), nats.IgnoreDiscoveredServers())
			if err == nil {
				nc.Close()
				return false
			}
			return strings.Contains(strings.ToLower(err.Error()), "authorization violation")
		})
	}
	c.mustRun(ctx, verifyCmd)
}

// serveWhileRecording runs the doc's serve command (its database and address in the test's
// folder and on a free loopback port) on the log that holds hands hands, records a second table
// while it runs, and waits until its read models hold every hand: the fechado user may do what
// serve does (follow the log, project it, publish the public views), and serve is still running.
// It returns how many events it recorded.
func (c *docCluster) serveWhileRecording(ctx context.Context, hands int) uint64 {
	t := c.t
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freeLoopbackPorts(t, 1)[0])
	// devices.json as the doc shows it, with the dealer's hash.
	devices, err := json.Marshal(map[string]any{"users": []map[string]string{
		{"name": "dealer-t1", "password": hash(t, c.secrets.dealer), "role": "table", "table": "t1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, "devices.json"), devices, 0o600); err != nil {
		t.Fatal(err)
	}
	command := strings.NewReplacer("/var/lib/fechado/fechado.db", "serve-a.db", "0.0.0.0:8080", addr,
		"/etc/fechado/devices.json", "devices.json").Replace(docCommand(t, serveCmd))
	sctx, stop := context.WithCancel(ctx)
	serve := exec.CommandContext(sctx, "sh", "-c", "exec "+command)
	serve.Cancel = func() error { return serve.Process.Signal(syscall.SIGTERM) }
	serve.Dir, serve.Env = c.dir, c.env
	log := &lockedBuffer{}
	serve.Stdout, serve.Stderr = log, log
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- serve.Wait() }()
	defer func() {
		stop()
		<-served
		if t.Failed() {
			t.Logf("serve's log:\n%s", tail(log.Bytes(), 3000))
		}
	}()
	total := func() int {
		select {
		case err := <-served:
			t.Fatalf("serve stopped: %v\n%s", err, log.Bytes())
		default:
		}
		cl := http.Client{Timeout: 5 * time.Second}
		resp, err := cl.Get("http://" + addr + "/api/hands?limit=1")
		if err != nil {
			return -1
		}
		defer resp.Body.Close()
		var page struct {
			Total int `json:"total"`
		}
		if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&page) != nil {
			return -1
		}
		return page.Total
	}
	waitUntil(t, time.Minute, "serve to project the recorded hands", func() bool { return total() == hands })
	if out, code := c.fechado(ctx, "sim", "--rules", "br-fechado", "--players", "3", "--hands", "5", "--seed", "8",
		"--table", "t2", "--out", "more.jsonl"); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, out)
	}
	if _, errs, code := c.run(ctx, strings.Replace(docCommand(t, recordCmd), "hands.jsonl", "more.jsonl", 1)); code != 0 {
		t.Fatalf("record more.jsonl: exit %d\n%s", code, errs)
	}
	waitUntil(t, time.Minute, "serve to project the hands recorded while it runs", func() bool { return total() == hands+5 })

	// Writes over HTTP are closed: an anonymous POST of a valid hand is refused, and nothing of it
	// is stored (the count of hands stays).
	body, err := os.ReadFile(filepath.Join(c.dir, "more.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	body = bytes.ReplaceAll(body, []byte(`"t2"`), []byte(`"t3"`)) // a table nobody recorded
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/api/events", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("an anonymous POST /api/events to the documented serve: %s, want 401", resp.Status)
	}
	if b := bytes.ToLower(log.Bytes()); bytes.Contains(b, []byte("permissions violation")) {
		t.Fatalf("serve ran into the server's permissions:\n%s", log.Bytes())
	}
	return countLines(t, filepath.Join(c.dir, "more.jsonl"))
}

// lockedBuffer is a process's output, written by exec's copying goroutine and read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Bytes returns a copy of what was written so far.
func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}

// run3 runs one of the doc's commands and returns its standard output and exit status (its
// standard error is a summary for people).
func (c *docCluster) run3(ctx context.Context, command string) (string, int) {
	c.t.Helper()
	out, _, code := c.run(ctx, docCommand(c.t, command))
	return out, code
}

// handOrders returns the hands of JSON Lines events in the order their first events come and
// in the order their last events come (the order in which they end).
func handOrders(t *testing.T, lines []byte) (byFirst, byLast []string) {
	t.Helper()
	last := map[string]int{}
	for i, line := range bytes.Split(bytes.TrimSpace(lines), []byte("\n")) {
		var e struct {
			Hand string `json:"hand"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("%v: %.80s", err, line)
		}
		if _, ok := last[e.Hand]; !ok {
			byFirst = append(byFirst, e.Hand)
		}
		last[e.Hand] = i
	}
	byLast = slices.Clone(byFirst)
	slices.SortFunc(byLast, func(a, b string) int { return last[a] - last[b] })
	return byFirst, byLast
}

// displaced counts the places where two orders of the same hands differ.
func displaced(a, b []string) int {
	n := 0
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			n++
		}
	}
	return n
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// recordThroughFailover runs the doc's record command on file (a name in the commands' folder)
// and kills the stream leader once a third of the file's events are stored; record is run again
// while it exits 3 (the doc's remedy); then the killed node is started again on its own store
// and the function waits until every node holds stored+events(file) events.
func (c *docCluster) recordThroughFailover(ctx context.Context, file string, stored uint64) uint64 {
	t := c.t
	t.Helper()
	events := countLines(t, filepath.Join(c.dir, file))
	command := strings.Replace(docCommand(t, recordCmd), "hands.jsonl", file, 1)
	record := exec.CommandContext(ctx, "sh", "-c", command)
	record.Dir, record.Env = c.dir, c.env
	var recordOut bytes.Buffer
	record.Stdout, record.Stderr = &recordOut, &recordOut
	if err := record.Start(); err != nil {
		t.Fatal(err)
	}
	recorded := make(chan error, 1)
	go func() { recorded <- record.Wait() }()

	victim := -1
	waitUntil(t, 3*time.Minute, "a third of the events stored", func() bool {
		select {
		case err := <-recorded:
			t.Fatalf("record ended (%v) before a third of the %d events were stored: make the file longer\n%s", err, events, recordOut.String())
		default:
		}
		st := c.streams(0)[recorder.StreamName]
		if st.State.Msgs < stored+events/3 || st.Cluster == nil || st.Cluster.Leader == "" {
			return false
		}
		for i, n := range c.nodes {
			if n.name == st.Cluster.Leader {
				victim = i
			}
		}
		return victim >= 0
	})
	t.Logf("%s: killing the stream leader %s at %d of %d events", file, c.nodes[victim].name, c.streams(0)[recorder.StreamName].State.Msgs-stored, events)
	c.kill(victim)

	code := 0
	if err := <-recorded; err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	log := recordOut.String()
	for attempt := 1; code == 3 && attempt < 6; attempt++ {
		t.Logf("%s: record exited 3 (attempt %d): recording the same file again, as the doc says: %s", file, attempt, lastLine(log))
		time.Sleep(time.Second) // an election takes a few seconds; an operator would not retry at once either
		_, log, code = c.run(ctx, command)
	}
	if code != 0 {
		t.Fatalf("%s: record: exit %d\n%s", file, code, log)
	}

	c.start(victim)
	c.waitHealthy(victim)
	for i := range c.nodes {
		waitUntil(t, time.Minute, c.nodes[i].name+" to hold every event", func() bool {
			return c.streams(i)[recorder.StreamName].State.Msgs == stored+events
		})
		c.checkStreams(i, stored+events)
	}
	return stored + events
}

// A failover during `record` changes nothing of the verdict (issue 39): on the documented
// cluster, three tables' cash sessions are recorded one after the other with the doc's record
// command, and each time the stream leader is killed (SIGKILL) while it runs; record is run again
// as the doc says whenever it exits 3, and the killed node restarts on its own store. Then verify
// holds, and the stored log audited with `audit --all --json` gives the findings of the files,
// byte for byte, whatever order the failovers left each table's hands in (the test logs how many
// hands the stream holds out of their table's order).
func TestDeploymentFailoverDuringRecordAuditsAsTheFile(t *testing.T) {
	if testing.Short() {
		t.Skip("three nats-server processes, the stream leader killed while record runs: a long test (make test-long, go test without -short)")
	}
	c := startDocCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c.mustRun(ctx, setupCmd)

	// Cash sessions long enough to be recording when the leader goes, with irregularities that
	// are judged against the table's previous hand (table.stack) among others.
	files := []string{"t1.jsonl", "t2.jsonl", "t3.jsonl"}
	stored := uint64(0)
	for i, f := range files {
		if out, code := c.fechado(ctx, "sim", "--rules", "br-fechado", "--players", "5", "--hands", "2000",
			"--seed", fmt.Sprint(11+i), "--table", strings.TrimSuffix(f, ".jsonl"), "--cash",
			"--inject", "table.stack,bet.amount,pot.total", "--out", f); code != 0 {
			t.Fatalf("sim: exit %d: %s", code, out)
		}
		stored = c.recordThroughFailover(ctx, f, stored)
	}
	c.mustRun(ctx, verifyCmd)

	// How many hands the stream holds at another place than their file (export --all writes the
	// hands in the order they first appear in the log).
	exported, code := c.fechado(ctx, "export", "--all", "--nats", strings.Join(c.urls, ","), "--user", "auditor", "--password", c.secrets.auditor)
	if code != 0 {
		t.Fatalf("export --all: exit %d", code)
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(c.dir, f))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	inFiles, _ := handOrders(t, all)
	inStream, _ := handOrders(t, []byte(exported))
	if moved := displaced(inFiles, inStream); moved > 0 {
		t.Logf("%d hands; %d first appear in the stream at another place than in the files", len(inFiles), moved)
	} else {
		// The failovers may leave every hand in place (record gave up at once and the rerun went
		// in order): the comparison below then holds whatever the auditor's order.
		t.Logf("%d hands, all in the files' order in the stream: these failovers moved no hand", len(inFiles))
	}

	stored2, storedCode := c.run3(ctx, auditAllCmd)
	want, wantCode := c.fechado(ctx, append([]string{"audit", "--json"}, files...)...)
	if wantCode != 1 || want == "" {
		t.Fatalf("the files' audit: exit %d, %d bytes: the injected irregularities were not found", wantCode, len(want))
	}
	if stored2 != want || storedCode != wantCode {
		sl, wl := strings.Split(stored2, "\n"), strings.Split(want, "\n")
		var extra, missing []string
		for _, l := range sl {
			if !slices.Contains(wl, l) {
				extra = append(extra, l)
			}
		}
		for _, l := range wl {
			if !slices.Contains(sl, l) {
				missing = append(missing, l)
			}
		}
		t.Fatalf("audit --all of the stored log (exit %d, %d findings) differs from the files' audit (exit %d, %d findings): %d findings only in the stored log's, %d only in the files'; first of each:\n%.600s\n%.600s",
			storedCode, len(sl)-1, wantCode, len(wl)-1, len(extra), len(missing), strings.Join(extra, "\n"), strings.Join(missing, "\n"))
	}
}
