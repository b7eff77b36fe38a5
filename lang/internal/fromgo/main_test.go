package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fechado/fechado/lang/internal/msgfile"
)

// A branch's new messages, declared the old way, land in the translators' files: English with
// the comments above them as its description, the translation with the hash of that English (a
// translation written with its English is not stale), a message already there is kept.
func TestMergeMovesGoMapsIntoFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("locales/en.toml", "# English\n\n[\"pot.label\"]\ndescription = \"Pots.\"\nother = \"Pot\"\n")
	write("locales/pt-BR.toml", "# Português\n\n[\"pot.label\"]\ndescription = \"Pots.\"\nhash = \""+msgfile.Hash("Pots.", "Pot")+"\"\nother = \"Pote\"\n")
	write("part_en.go", `package lang

// The tournament clock's words.
var _ = extend("en", map[string]Text{
	// The level.
	"clock.level": {Other: "Level {level}"},
	"clock.hands": {One: "{n} hand", Other: "{n} hands"}, // hands left in the level
})
`)
	write("part_pt_br.go", `package lang

// The tournament clock's words, with the Brazilian "nível".
var _ = extend("pt-BR", map[string]Text{
	"clock.level": {Other: "Nível {level}"},
	"clock.hands": {One: "{n} mão", Other: "{n} mãos"},
})
`)
	var parts []part
	for _, f := range []string{"part_pt_br.go", "part_en.go"} {
		ps, err := readGo(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, ps...)
	}
	if err := merge(dir, parts); err != nil {
		t.Fatal(err)
	}
	read := func(code string) (map[string]msgfile.Message, string) {
		p := filepath.Join(dir, "locales", code+".toml")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := msgfile.Read(data, p)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]msgfile.Message{}
		for _, m := range msgs {
			out[m.ID] = m
		}
		return out, msgfile.Header(data)
	}
	en, _ := read("en")
	pt, ptHeader := read("pt-BR")
	want := map[string]msgfile.Message{
		"pot.label":   {ID: "pot.label", Description: "Pots.", Other: "Pot"},
		"clock.level": {ID: "clock.level", Description: "The tournament clock's words.\nThe level.", Other: "Level {level}"},
		"clock.hands": {ID: "clock.hands", Description: "The tournament clock's words.\nThe level.\nhands left in the level", One: "{n} hand", Other: "{n} hands"},
	}
	for id, w := range want {
		if en[id] != w {
			t.Errorf("en %s: %+v, want %+v", id, en[id], w)
		}
		p := pt[id]
		if p.Hash != msgfile.Hash(w.Description, w.Other) || p.Description != w.Description {
			t.Errorf("pt-BR %s: %+v, not made from English %+v", id, p, w)
		}
	}
	if pt["clock.hands"].One != "{n} mão" || pt["pot.label"].Other != "Pote" {
		t.Errorf("pt-BR: %+v", pt)
	}
	if want := "Português\n\nNotes for the translators of this language:\n- The tournament clock's words, with the Brazilian \"nível\"."; ptHeader != want {
		t.Errorf("pt-BR header %q, want %q", ptHeader, want)
	}
}
