// Package msgfile reads and writes the translators' message files of package lang
// (lang/locales/*.toml): go-i18n v2's TOML message format, one table per message with its
// description, the hash of the English text a translation was made from, and its CLDR plural
// forms. The runtime reads the canonical form this package writes with a reader of its own (lang's
// readMessages, held to go-i18n's result by lang's tests); this package is for the tools that
// write the files (lang's test with -update, the converter of lang/internal/fromgo), so that
// every writer gives the same bytes.
package msgfile

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// Message is one message of a file.
type Message struct {
	ID          string `toml:"-"`
	Description string `toml:"description,omitempty"`
	Hash        string `toml:"hash,omitempty"`
	Zero        string `toml:"zero,omitempty"`
	One         string `toml:"one,omitempty"`
	Two         string `toml:"two,omitempty"`
	Few         string `toml:"few,omitempty"`
	Many        string `toml:"many,omitempty"`
	Other       string `toml:"other"`
}

// Hash returns the hash of an English message that its translations record: go-i18n's (goi18n
// merge writes the same), the SHA-1 of the description followed by the other form, so that a
// translator's tool and lang's test agree on which translations are stale.
func Hash(description, other string) string {
	h := sha1.New()
	_, _ = io.WriteString(h, description)
	_, _ = io.WriteString(h, other)
	return fmt.Sprintf("sha1-%x", h.Sum(nil))
}

// Read parses a message file with go-i18n's parser (the runtime's), path naming its language
// ("locales/pt-BR.toml"). The messages come sorted by id.
func Read(data []byte, path string) ([]Message, error) {
	f, err := i18n.ParseMessageFileBytes(data, path, map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		return nil, err
	}
	out := make([]Message, 0, len(f.Messages))
	for _, m := range f.Messages {
		out = append(out, Message{ID: m.ID, Description: m.Description, Hash: m.Hash,
			Zero: m.Zero, One: m.One, Two: m.Two, Few: m.Few, Many: m.Many, Other: m.Other})
	}
	slices.SortFunc(out, func(a, b Message) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// Write writes msgs as a message file: header (comment lines, without their "# ") first, then
// the messages sorted by id, each a table of its own.
func Write(w io.Writer, header string, msgs []Message) error {
	var b bytes.Buffer
	for _, l := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	b.WriteString("\n")
	byID := make(map[string]Message, len(msgs))
	for _, m := range msgs {
		if _, dup := byID[m.ID]; dup {
			return fmt.Errorf("message %q twice", m.ID)
		}
		byID[m.ID] = m
	}
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(byID); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Header returns the comment lines at the top of a message file, without their "# ": the notes a
// writer keeps.
func Header(data []byte) string {
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
	}
	return strings.Join(lines, "\n")
}

// DefaultHeader is the top of a new message file of language code.
func DefaultHeader(code string) string {
	s := "fechado's messages in " + code + ": a go-i18n v2 message file (TOML), one table per message.\n" +
		"description: what the message is for, from English. zero, one, two, few, many, other: its\n" +
		"forms by CLDR plural category (a count {n} picks one; other is the form without a count).\n" +
		"{name}: a placeholder, written as is.\n"
	if code != "en" {
		s += "hash: go-i18n's hash of the English description and text this translation was made from;\n" +
			"go test ./lang lists a translation whose English has changed since (stale).\n"
	} else {
		s += "This is the source every translation is made from and checked against.\n"
	}
	return s + "How to add or change a message: the package comment of lang (lang/lang.go)."
}
