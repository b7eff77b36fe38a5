package lang

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/fechado/fechado/lang/internal/msgfile"
)

// readAtStart lists the languages whose file was read before any test ran: by the package's
// initialization alone; readByCheckFlag those read after by CheckFlag of flagsChecked.
var readAtStart, readByCheckFlag []string

// flagsChecked are --lang values accepted and refused, exactly and by the matcher.
var flagsChecked = []string{"", "en", "pt-BR", "pt", "es-AR", "tr_TR.UTF-8", "TR", "C", "klingon", "de", "x-y-z"}

func TestMain(m *testing.M) {
	read := func() (codes []string) {
		for _, l := range all {
			if l.Messages != nil {
				codes = append(codes, l.Code)
			}
		}
		return codes
	}
	readAtStart = read()
	for _, f := range flagsChecked {
		_ = CheckFlag(f)
	}
	readByCheckFlag = read()
	os.Exit(m.Run())
}

// CheckFlag refuses the --lang values Choose refuses, with its error, and reads no file.
func TestCheckFlagIsChoosesCheck(t *testing.T) {
	if len(readByCheckFlag) > 0 {
		t.Errorf("CheckFlag read the files of %v", readByCheckFlag)
	}
	refused := 0
	for _, f := range flagsChecked {
		_, want := Choose(f, nil)
		got := CheckFlag(f)
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Errorf("CheckFlag(%q) = %v, Choose's error %v", f, got, want)
		}
		if got != nil {
			refused++
		}
	}
	if refused == 0 || refused == len(flagsChecked) {
		t.Errorf("%d of %d flags refused: the cases check one side only", refused, len(flagsChecked))
	}
}

// Starting a program reads no translators' file: each is read at its language's first use, so
// a command that writes nothing to a reader (or only in one language) pays for none (or one).
func TestStartReadsNoFile(t *testing.T) {
	if len(readAtStart) > 0 {
		t.Errorf("read at start: %v", readAtStart)
	}
}

// goI18n returns the messages go-i18n's parser reads in data, as lang keeps them.
func goI18n(t interface{ Fatalf(string, ...any) }, data []byte) map[string]Text {
	msgs, err := msgfile.Read(data, "locales/en.toml")
	if err != nil {
		t.Fatalf("go-i18n: %v\n%s", err, data)
	}
	out := make(map[string]Text, len(msgs))
	for _, m := range msgs {
		out[m.ID] = Text{Zero: m.Zero, One: m.One, Two: m.Two, Few: m.Few, Many: m.Many, Other: m.Other}
	}
	return out
}

// The program's reader reads every shipped file itself (no fallback to go-i18n at start) and
// reads it as go-i18n does.
func TestReadMessagesIsGoI18ns(t *testing.T) {
	for _, x := range languages {
		got, ok := readMessages(x.file)
		if !ok {
			t.Errorf("%s: readMessages declines the file: it is not in canonical form (go test ./lang -run TestLocales -update)", x.code)
			continue
		}
		if want := goI18n(t, []byte(x.file)); !maps.Equal(got, want) {
			t.Errorf("%s: readMessages reads %d messages, go-i18n %d, or their texts differ", x.code, len(got), len(want))
		}
	}
}

// Whatever msgfile writes (TestLocales keeps every file as it writes them), readMessages reads,
// and as go-i18n does: ids and texts with quotes, backslashes, control characters, dots and any
// Unicode.
func TestReadMessagesReadsWhatMsgfileWrites(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.OneOf(rapid.String(), rapid.StringMatching(`[a-z {}"\\\n\t\x08\f\r\x01\x1f\x7fé🂡]*`))
		maybe := func(label string) string {
			if rapid.Bool().Draw(t, label+"?") {
				return text.Draw(t, label)
			}
			return ""
		}
		ids := rapid.SliceOfNDistinct(rapid.OneOf(rapid.StringMatching(`[a-z][a-z0-9._-]{0,12}`), rapid.StringN(1, 8, -1)), 1, 6, rapid.ID).
			Filter(func(ids []string) bool { return !slices.Contains(ids, "translation") }).Draw(t, "ids")
		var msgs []msgfile.Message
		for _, id := range ids {
			msgs = append(msgs, msgfile.Message{ID: id, Description: maybe("description"), Hash: maybe("hash"),
				Zero: maybe("zero"), One: maybe("one"), Two: maybe("two"), Few: maybe("few"), Many: maybe("many"), Other: text.Draw(t, "other")})
		}
		var b bytes.Buffer
		if err := msgfile.Write(&b, msgfile.DefaultHeader("en"), msgs); err != nil {
			t.Fatal(err)
		}
		got, ok := readMessages(b.String())
		if !ok {
			t.Fatalf("declined:\n%s", b.String())
		}
		if want := goI18n(t, b.Bytes()); !maps.Equal(got, want) {
			t.Fatalf("read %v, go-i18n %v\n%s", got, want, b.String())
		}
	})
}

// readMessages reads only the canonical subset and declines the rest of TOML, which readFile
// then gives to go-i18n: the cases are TOML 1.0's (toml.io/en/v1.0.0) forms it does not read, and
// go-i18n's keys that mean something else (id, translation, a key in capitals).
func TestReadMessagesDeclinesTheRest(t *testing.T) {
	cases := []struct {
		name, data string
		read       bool
	}{
		{"canonical", "# c\n\n[a]\nother = \"x\"\n\n[\"b.c\"]\ndescription = \"d\"\nhash = \"h\"\none = \"1\"\nother = \"n\"\n", true},
		{"escapes (TOML §String)", `["a\"b"]` + "\nother = \"q\\\" b\\\\ n\\n t\\t u\\u00e9 U\\U0001F0A1 b\\b f\\f r\\r\"\n", true},
		{"spaces and comments", "  [ a ]  # c\n\tother  =  \"x\"  # c\n", true},
		{"no final newline", "[a]\nother = \"x\"", true},
		{"literal string", "[a]\nother = 'x'\n", false},
		{"multi-line string", "[a]\nother = \"\"\"x\"\"\"\n", false},
		{"multi-line string over lines", "[a]\nother = \"\"\"\nx\n\"\"\"\n", false},
		{"dotted table", "[a.b]\nother = \"x\"\n", false},
		{"dotted key", "[a]\nb.other = \"x\"\n", false},
		{"array of tables", "[[a]]\nother = \"x\"\n", false},
		{"top-level message", "a = \"x\"\n", false},
		{"id field", "[a]\nid = \"b\"\nother = \"x\"\n", false},
		{"translation field", "[a]\ntranslation = \"x\"\n", false},
		{"translation id (go-i18n reads a v1 message)", "[translation]\nother = \"x\"\n", false},
		{"capital key", "[a]\nOther = \"x\"\n", false},
		{"unknown key", "[a]\nfoo = \"x\"\n", false},
		{"not a string", "[a]\nother = 3\n", false},
		{"repeated table", "[a]\nother = \"x\"\n[a]\none = \"y\"\n", false},
		{"repeated table, quoted", "[a]\nother = \"x\"\n[\"a\"]\none = \"y\"\n", false},
		{"repeated key", "[a]\nother = \"x\"\nother = \"y\"\n", false},
		{"empty table", "[a]\n[b]\nother = \"x\"\n", false},
		{"CRLF", "[a]\r\nother = \"x\"\r\n", false},
		{"unterminated", "[a]\nother = \"x\n", false},
		{"control character", "[a]\nother = \"x\x01\"\n", false},
		{"control character in a comment", "# \x01\n[a]\nother = \"x\"\n", false},
		{"TOML 1.1 escape", "[a]\nother = \"\\e\"\n", false},
		{"surrogate", "[a]\nother = \"\\ud800\"\n", false},
		{"short \\u", "[a]\nother = \"\\u00\"\n", false},
		{"invalid UTF-8", "[a]\nother = \"\xff\"\n", false},
		{"garbage after a value", "[a]\nother = \"x\" y\n", false},
		{"garbage after a table", "[a] y\nother = \"x\"\n", false},
		{"empty id", "[\"\"]\nother = \"x\"\n", false},
	}
	for _, c := range cases {
		got, ok := readMessages(c.data)
		if ok != c.read {
			t.Errorf("%s: read %v, want %v", c.name, ok, c.read)
			continue
		}
		if ok {
			if want := goI18n(t, []byte(c.data)); !maps.Equal(got, want) {
				t.Errorf("%s: read %v, go-i18n %v", c.name, got, want)
			}
		}
	}
}

// A file outside the subset still reads, by go-i18n: the fallback is what go-i18n makes of it.
func TestReadFileFallsBackToGoI18n(t *testing.T) {
	data := "[a]\nother = 'C:\\n'\n\n[b]\nother = \"\"\"\nline\"\"\"\none = \"x {n}\"\n"
	if _, ok := readMessages(data); ok {
		t.Fatal("readMessages reads a literal string")
	}
	got, want := readFile("en", data), map[string]Text{"a": {Other: `C:\n`}, "b": {One: "x {n}", Other: "line"}}
	if !maps.Equal(got, want) {
		t.Errorf("readFile: %v, want %v", got, want)
	}
}

// A language's first use from many goroutines at once reads its file once and every goroutine
// sees the messages (go test -race checks the ordering).
func TestFirstUseFromManyGoroutines(t *testing.T) {
	l := &Lang{Code: "tr", Name: "Türkçe", file: trFile}
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() { got[i] = l.loaded().Messages["ev.check"].Other })
	}
	wg.Wait()
	for i, s := range got {
		if s != "{player}: pas." {
			t.Errorf("goroutine %d: %q", i, s)
		}
	}
}

// The start-up work of a process, per language: reading the language's file, by the program's
// reader and by go-i18n's (the reader before it). Run with -benchmem.
func BenchmarkReadFile(b *testing.B) {
	for _, x := range languages {
		b.Run("readMessages/"+x.code, func(b *testing.B) {
			b.SetBytes(int64(len(x.file)))
			for b.Loop() {
				if _, ok := readMessages(x.file); !ok {
					b.Fatal("declined")
				}
			}
		})
		b.Run("go-i18n/"+x.code, func(b *testing.B) {
			b.SetBytes(int64(len(x.file)))
			for b.Loop() {
				goI18n(b, []byte(x.file))
			}
		})
	}
}

// BenchmarkFirstMessage is a process's first message in Portuguese: the language read at its
// first use, then one message written.
func BenchmarkFirstMessage(b *testing.B) {
	for b.Loop() {
		pt := byCode["pt-br"]
		l := &Lang{Code: pt.Code, Tag: pt.Tag, file: pt.file}
		if s := l.loaded().T("ev.draw", Args{"player": "Ana", "n": 3}); s != "Ana troca 3." {
			b.Fatal(s)
		}
	}
}
