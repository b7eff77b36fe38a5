package handhistory_test

import (
	"bytes"
	"os"
	"testing"
	"unicode/utf16"

	"github.com/fechado/fechado/handhistory"
)

// The eight real PokerStars files of testdata/hh concatenated as `cat *.txt` does: three start
// with a byte-order mark, and some do not end in a newline, so a later file's mark and header
// stand in the middle of a line. Every one of the 37 hands is imported, none is skipped (issue 45).
func TestConcatenatedRealFilesImportEveryHand(t *testing.T) {
	var all []byte
	hands := 0
	for _, f := range realFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		hands += len(importFile(t, handhistory.PokerStars, f).Hands)
		all = append(all, data...)
	}
	if hands != 37 {
		t.Fatalf("the files one by one give %d hands, want 37", hands)
	}
	if !bytes.Contains(all, []byte("Draw\xef\xbb\xbfPokerStars")) && !bytes.Contains(all, []byte("Aces\xef\xbb\xbfPokerStars")) {
		t.Fatalf("the concatenation has no byte-order mark inside a line: the test proves nothing")
	}
	res := handhistory.ImportPokerStars("-", all)
	if len(res.Hands) != 37 || len(res.Skipped) != 0 {
		t.Fatalf("imported %d of 37 hands, skipped %v", len(res.Hands), res.Skipped)
	}
	for _, h := range res.Hands {
		checkEvents(t, h)
	}
	for _, f := range auditImported(t, res) {
		if f.Severity == "error" && auditGaps["5-Carddraw-USD-0.10-0.20-200911.txt "+string(f.Code)] == "" {
			t.Errorf("%s", f.JSON())
		}
	}
}

// A UTF-16 file (Full Tilt writes UTF-16LE with CRLF) reads as the same hands as its UTF-8 text,
// with its byte-order mark or without one.
func TestUTF16ReadsAsUTF8(t *testing.T) {
	data, err := os.ReadFile(realFiles(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	want := handhistory.ImportPokerStars("x", data)
	if len(want.Hands) == 0 {
		t.Fatal("no hand in the UTF-8 file")
	}
	for _, bom := range []bool{true, false} {
		u := utf16.Encode([]rune(string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))))
		var le []byte
		if bom {
			le = append(le, 0xff, 0xfe)
		}
		for _, c := range u {
			le = append(le, byte(c), byte(c>>8))
		}
		got := handhistory.ImportPokerStars("x", le)
		if len(got.Hands) != len(want.Hands) || len(got.Skipped) != 0 {
			t.Fatalf("bom %v: %d hands, skipped %v", bom, len(got.Hands), got.Skipped)
		}
		for i := range got.Hands {
			if !bytes.Equal(got.Hands[i].Events[len(got.Hands[i].Events)-1].Raw, want.Hands[i].Events[len(want.Hands[i].Events)-1].Raw) {
				t.Errorf("bom %v: hand %d differs from the UTF-8 import", bom, i)
			}
		}
	}
}
