// Command fromgo moves messages declared as Go map literals into the translators' files of
// package lang (lang/locales/*.toml). Before those files, lang's messages were Go code:
//
//	func init() { register(&Lang{Code: "en", ..., Messages: map[string]Text{"key": {Other: "…"}}}) }
//	var _ = extend("pt-BR", map[string]Text{"web.menu.tables": {One: "…", Other: "Mesas"}})
//
// A branch that still adds messages that way merges with a conflict on the deleted Go file; keep
// the branch's version of the file, run
//
//	go run ./lang/internal/fromgo lang/web_pt_br.go lang/web_en.go …
//
// and delete the Go files. Every message of the files given is written into the file of its
// language, added or replacing the text there: the English description is the comment of the
// message's part (above var _ = extend) and of its section (the comment above a group of
// entries), a translation's hash the English one's (a translation written with its English is
// not stale). Comments of a translation's own files that English lacks become notes at the top of
// its file. With no file named, it reads every Go file of lang (the first conversion).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fechado/fechado/lang/internal/msgfile"
)

// entry is one message read from Go.
type entry struct {
	key, one, other, desc string
}

// part is what one file declares for one language.
type part struct {
	code    string
	entries []entry
	notes   []string // every comment of the file, for a translation's notes
}

func main() {
	dir := flag.String("dir", "lang", "the lang package's folder (its locales/ are written)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./lang/internal/fromgo [-dir lang] [FILE.go…]")
		flag.PrintDefaults()
	}
	flag.Parse()
	files := flag.Args()
	if len(files) == 0 {
		all, _ := filepath.Glob(filepath.Join(*dir, "*.go"))
		for _, f := range all {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, f)
			}
		}
	}
	var parts []part
	for _, f := range files {
		ps, err := readGo(f)
		if err != nil {
			log.Fatal(err)
		}
		parts = append(parts, ps...)
	}
	if len(parts) == 0 {
		log.Fatal("no register or extend call with messages in the files given")
	}
	if err := merge(*dir, parts); err != nil {
		log.Fatal(err)
	}
}

// readGo returns the messages a Go file declares, by language.
func readGo(path string) ([]part, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var out []part
	for _, decl := range f.Decls {
		var doc *ast.CommentGroup
		if g, ok := decl.(*ast.GenDecl); ok {
			doc = g.Doc
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := call.Fun.(*ast.Ident)
			if fn == nil || len(call.Args) == 0 {
				return true
			}
			var code string
			var msgs *ast.CompositeLit
			switch fn.Name {
			case "extend":
				if len(call.Args) != 2 {
					return true
				}
				code, _ = str(call.Args[0])
				msgs, _ = call.Args[1].(*ast.CompositeLit)
			case "register":
				u, ok := call.Args[0].(*ast.UnaryExpr)
				if !ok {
					return true
				}
				l, ok := u.X.(*ast.CompositeLit)
				if !ok {
					return true
				}
				for _, e := range l.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					switch kv.Key.(*ast.Ident).Name {
					case "Code":
						code, _ = str(kv.Value)
					case "Messages":
						msgs, _ = kv.Value.(*ast.CompositeLit)
					}
				}
			default:
				return true
			}
			if code == "" || msgs == nil {
				err = fmt.Errorf("%s: a %s call whose language or messages are not literals", fset.Position(call.Pos()), fn.Name)
				return false
			}
			p := part{code: code}
			p.entries, err = entries(fset, f, msgs, text(doc))
			for _, c := range f.Comments {
				if s := text(c); s != "" && !strings.HasPrefix(s, "Package ") {
					p.notes = append(p.notes, s)
				}
			}
			out = append(out, p)
			return false
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// entries reads a map[string]Text literal; partDoc is the comment of its declaration. Each
// entry's description is partDoc, then the last comment above it inside the map (its section),
// then a comment on its own line.
func entries(fset *token.FileSet, f *ast.File, lit *ast.CompositeLit, partDoc string) ([]entry, error) {
	var comments []*ast.CommentGroup
	for _, c := range f.Comments {
		if c.Pos() > lit.Lbrace && c.End() < lit.Rbrace {
			comments = append(comments, c)
		}
	}
	var out []entry
	section := ""
	prevEnd := lit.Lbrace
	ci := 0
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil, fmt.Errorf("%s: not a key: value entry", fset.Position(e.Pos()))
		}
		for ci < len(comments) && comments[ci].End() < kv.Pos() {
			c := comments[ci]
			ci++
			if c.Pos() < prevEnd || fset.Position(c.Pos()).Line == fset.Position(prevEnd).Line {
				continue // a comment at the end of the previous entry's line: that entry's
			}
			section = text(c)
		}
		key, err := str(kv.Key)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fset.Position(kv.Pos()), err)
		}
		en := entry{key: key}
		val, ok := kv.Value.(*ast.CompositeLit)
		if !ok {
			return nil, fmt.Errorf("%s: %s: not a Text literal", fset.Position(kv.Pos()), key)
		}
		for _, fe := range val.Elts {
			fkv, ok := fe.(*ast.KeyValueExpr)
			if !ok {
				return nil, fmt.Errorf("%s: %s: an unkeyed Text", fset.Position(kv.Pos()), key)
			}
			s, err := str(fkv.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v", fset.Position(fkv.Pos()), key, err)
			}
			switch fkv.Key.(*ast.Ident).Name {
			case "One":
				en.one = s
			case "Other":
				en.other = s
			default:
				return nil, fmt.Errorf("%s: %s: unknown form %s", fset.Position(fkv.Pos()), key, fkv.Key.(*ast.Ident).Name)
			}
		}
		var desc []string
		for _, d := range []string{partDoc, section} {
			if d != "" {
				desc = append(desc, d)
			}
		}
		// A comment on the entry's own line, after it, is the entry's alone.
		line := fset.Position(kv.End()).Line
		for _, c := range comments {
			if c.Pos() > kv.End() && fset.Position(c.Pos()).Line == line {
				desc = append(desc, text(c))
			}
		}
		en.desc = strings.Join(desc, "\n")
		out = append(out, en)
		prevEnd = kv.End()
	}
	return out, nil
}

// str evaluates a string literal, or a sum of them.
func str(e ast.Expr) (string, error) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			return strconv.Unquote(x.Value)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			a, err := str(x.X)
			if err != nil {
				return "", err
			}
			b, err := str(x.Y)
			return a + b, err
		}
	case *ast.ParenExpr:
		return str(x.X)
	}
	return "", fmt.Errorf("not a string literal")
}

// text is a comment's text on one line per sentence as written, without the comment markers.
func text(c *ast.CommentGroup) string {
	if c == nil {
		return ""
	}
	return strings.Join(strings.Fields(c.Text()), " ")
}

// merge writes the parts into the message files of dir/locales, English first (the translations'
// hashes and descriptions come from it).
func merge(dir string, parts []part) error {
	files := map[string][]msgfile.Message{}
	headers := map[string]string{}
	for _, code := range codes(parts, dir) {
		path := filepath.Join(dir, "locales", code+".toml")
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			return err
		}
		msgs, err := msgfile.Read(data, path)
		if err != nil {
			return err
		}
		files[code], headers[code] = msgs, msgfile.Header(data)
	}
	// English first.
	slices.SortStableFunc(parts, func(a, b part) int {
		return boolInt(b.code == "en") - boolInt(a.code == "en")
	})
	enNotes := map[string]bool{}
	for _, p := range parts {
		if p.code == "en" {
			for _, n := range p.notes {
				enNotes[n] = true
			}
		}
	}
	changed := map[string]int{}
	for _, p := range parts {
		for _, e := range p.entries {
			m := msgfile.Message{ID: e.key, One: e.one, Other: e.other}
			if p.code == "en" {
				m.Description = e.desc
			} else {
				en, ok := find(files["en"], e.key)
				if !ok {
					return fmt.Errorf("%s: %q has no English message", p.code, e.key)
				}
				m.Description, m.Hash = en.Description, msgfile.Hash(en.Description, en.Other)
			}
			if old, ok := find(files[p.code], e.key); ok {
				if old == m {
					continue
				}
				m.Zero, m.Two, m.Few, m.Many = old.Zero, old.Two, old.Few, old.Many
				files[p.code] = slices.DeleteFunc(files[p.code], func(x msgfile.Message) bool { return x.ID == e.key })
			}
			files[p.code] = append(files[p.code], m)
			changed[p.code]++
		}
		if p.code != "en" {
			for _, n := range p.notes {
				if enNotes[n] || strings.Contains(strings.Join(strings.Fields(headers[p.code]), " "), n) {
					continue
				}
				if headers[p.code] == "" {
					headers[p.code] = msgfile.DefaultHeader(p.code)
				}
				if !strings.Contains(headers[p.code], notesTitle) {
					headers[p.code] += "\n\n" + notesTitle
				}
				headers[p.code] += "\n" + wrap("- "+n, 98)
			}
		}
	}
	for code, msgs := range files {
		if changed[code] == 0 {
			continue
		}
		h := headers[code]
		if h == "" {
			h = msgfile.DefaultHeader(code)
		}
		var b bytes.Buffer
		if err := msgfile.Write(&b, h, msgs); err != nil {
			return err
		}
		path := filepath.Join(dir, "locales", code+".toml")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d messages added or changed, %d in all\n", path, changed[code], len(msgs))
	}
	return nil
}

// codes lists the languages of parts and of the files already in dir/locales.
func codes(parts []part, dir string) []string {
	var out []string
	for _, p := range parts {
		if !slices.Contains(out, p.code) {
			out = append(out, p.code)
		}
	}
	have, _ := filepath.Glob(filepath.Join(dir, "locales", "*.toml"))
	for _, f := range have {
		if c := strings.TrimSuffix(filepath.Base(f), ".toml"); !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	if !slices.Contains(out, "en") {
		out = append(out, "en")
	}
	return out
}

// notesTitle heads the notes of a translation's own Go files at the top of its file.
const notesTitle = "Notes for the translators of this language:"

// wrap breaks s into lines of at most width characters, at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 && n+1+len([]rune(w)) > width {
			b.WriteString("\n  ")
			n = 2
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len([]rune(w))
	}
	return b.String()
}

func find(msgs []msgfile.Message, id string) (msgfile.Message, bool) {
	for _, m := range msgs {
		if m.ID == id {
			return m, true
		}
	}
	return msgfile.Message{}, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
