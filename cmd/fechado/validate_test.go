package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fechado/fechado/internal/testfiles"
)

// Each sample file exits as its name says, and every problem line names the file, the line and
// the field: file:line: field: message.
func TestValidateSamples(t *testing.T) {
	dir := filepath.Join("testdata", "validate")
	for _, tc := range []struct {
		file  string
		where []string // "line: field" of each problem, in order; field may be empty
	}{
		{"good.jsonl", nil},
		{"good-prefix.jsonl", nil},
		{"truncated.jsonl", []string{"5: "}},
		{"truncated-end.jsonl", []string{"8: "}},
		{"not-json.jsonl", []string{"5: "}}, // events-v1.md §8: seq 5, after the previous line, in the chain
		{"unknown-type.jsonl", []string{"4: type"}},
		{"bad-card.jsonl", []string{"8: data.card"}},
		{"seq-gap.jsonl", []string{"5: seq"}},
		{"broken-chain.jsonl", []string{"6: prev"}},
		{"duplicate-id.jsonl", []string{"7: id"}},
		{"not-utf8.jsonl", []string{"1: "}},
		{"after-ended.jsonl", []string{"39: seq"}},
		{"many-problems.jsonl", []string{"2: data.count", "4: data.tip", "7: data.seat", "9: prev"}},
	} {
		path := filepath.Join(dir, tc.file)
		code, out, errOut := fechado("", "validate", path)
		want := exitOK
		if len(tc.where) > 0 {
			want = exitUsage
		}
		if code != want {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%sstderr: %s", tc.file, code, want, out, errOut)
			continue
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if out == "" {
			lines = nil
		}
		if len(lines) != len(tc.where) {
			t.Errorf("%s: %d problems, want %d:\n%s", tc.file, len(lines), len(tc.where), out)
			continue
		}
		for i, w := range tc.where {
			prefix := path + ":" + w
			if !strings.HasSuffix(w, " ") {
				prefix += ": "
			}
			if !strings.HasPrefix(lines[i], prefix) || len(lines[i]) <= len(prefix) {
				t.Errorf("%s: problem %d is %q, want it to start %q and say what is wrong", tc.file, i+1, lines[i], prefix)
			}
		}
		if want == exitOK && !strings.Contains(errOut, "valid") {
			t.Errorf("%s: no summary on stderr: %q", tc.file, errOut)
		}
		if want == exitUsage && !strings.Contains(errOut, "fechado validate: "+plural(len(tc.where), "problem")) {
			t.Errorf("%s: summary %q does not count %d problems", tc.file, errOut, len(tc.where))
		}
	}
}

// The problems of envelope checks carry their audit code.
func TestValidateNamesAuditCodes(t *testing.T) {
	dir := filepath.Join("testdata", "validate")
	for file, code := range map[string]string{
		"seq-gap.jsonl":      "[log.sequence]",
		"after-ended.jsonl":  "[log.sequence]",
		"broken-chain.jsonl": "[log.chain]",
		"duplicate-id.jsonl": "[log.duplicate-id]",
	} {
		_, out, _ := fechado("", "validate", filepath.Join(dir, file))
		if !strings.HasSuffix(strings.TrimSpace(out), code) {
			t.Errorf("%s: %q does not end with %s", file, out, code)
		}
	}
}

// The logs of an independent implementation are valid, checked together in one run.
func TestValidateVectors(t *testing.T) {
	files := testfiles.Glob(t, "vectors/*.jsonl")
	code, out, errOut := fechado("", append([]string{"validate"}, files...)...)
	if code != exitOK || out != "" {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if want := plural(len(files), "file"); !strings.Contains(errOut, want) {
		t.Errorf("summary %q does not count %s", errOut, want)
	}
}

// "-" reads standard input, named stdin in problems; every FILE is checked even after a bad one,
// and a missing FILE is a problem, not the end.
func TestValidateStdinAndManyFiles(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "validate", "good-prefix.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := fechado(string(good), "validate", "-"); code != exitOK || out != "" {
		t.Errorf("good stdin: exit %d\n%s%s", code, out, errOut)
	}
	bad := strings.Replace(string(good), `"phase":"deal"`, `"phase":"flop"`, 1)
	code, out, _ := fechado(bad, "validate", "-")
	if code != exitUsage || !regexp.MustCompile(`^stdin:7: data\.phase: .*flop`).MatchString(out) {
		t.Errorf("bad stdin: exit %d, %q", code, out)
	}

	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	code, out, errOut := fechado(bad, "validate",
		filepath.Join("testdata", "validate", "bad-card.jsonl"), missing, "-",
		filepath.Join("testdata", "validate", "good.jsonl"))
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	for _, want := range []string{"bad-card.jsonl:8: data.card: ", missing + ": ", "stdin:7: data.phase: "} {
		if !strings.Contains(out, want) {
			t.Errorf("no problem %q in:\n%s", want, out)
		}
	}
	// stdin's line 7 was edited, so line 8's prev no longer matches it: 1 + 1 + 2 problems.
	if !strings.Contains(errOut, "4 problems in 3 of 4 files") {
		t.Errorf("summary: %q", errOut)
	}
}

// Blank lines are skipped and CRLF line ends are refused by no rule: they are whitespace.
func TestValidateBlankLines(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "validate", "good-prefix.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in := "\n" + strings.Replace(string(good), "\n", "\n  \n", 3)
	if code, out, errOut := fechado(in, "validate", "-"); code != exitOK {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestValidateUsage(t *testing.T) {
	if code, _, errOut := fechado("", "validate"); code != exitUsage || !strings.Contains(errOut, "no FILE") {
		t.Errorf("no FILE: exit %d, %q", code, errOut)
	}
	if code, _, errOut := fechado("", "validate", "--strict", "x"); code != exitUsage || !strings.Contains(errOut, "strict") {
		t.Errorf("unknown flag: exit %d, %q", code, errOut)
	}
	code, out, _ := fechado("", "validate", "--help")
	if code != exitOK || !strings.Contains(out, "file:line: field: message") {
		t.Errorf("--help: exit %d:\n%s", code, out)
	}
}
