package main

import (
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// TestPasswdHashVerifies: passwd prints a bcrypt hash of the first line of stdin, at the cost
// asked for, that bcrypt accepts for the password and refuses for another; an empty password, a
// cost out of bcrypt's range and a password over bcrypt's 72 bytes are bad usage.
func TestPasswdHashVerifies(t *testing.T) {
	code, out, stderr := recRun(t, []byte("correct horse\r\nsecond line\n"), "passwd", "--cost", "5")
	if code != 0 {
		t.Fatalf("passwd: exit %d %s", code, stderr)
	}
	hash := strings.TrimSpace(out)
	if !strings.HasPrefix(hash, "$2a$05$") || strings.Count(out, "\n") != 1 {
		t.Fatalf("passwd printed %q, want one bcrypt hash of cost 5", out)
	}
	if err := bcrypt.CompareHashAndPassword([]byte(hash), []byte("correct horse")); err != nil {
		t.Errorf("the hash does not verify the password: %v", err)
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte("correct horse\r")) == nil {
		t.Error("the line end went into the password")
	}
	if code, out, _ := recRun(t, []byte("x"), "passwd", "--cost", "4"); code != 0 || !strings.HasPrefix(out, "$2a$04$") {
		t.Errorf("a password without a line end: exit %d %q", code, out)
	}
	if code, out, _ := recRun(t, []byte("x\n"), "passwd"); code != 0 || !strings.HasPrefix(out, "$2a$11$") {
		t.Errorf("the default cost: exit %d %q, want 11", code, out)
	}
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"\n", nil, "empty"},
		{"", nil, "empty"},
		{"x\n", []string{"--cost", "3"}, "--cost"},
		{"x\n", []string{"--cost", "32"}, "--cost"},
		{strings.Repeat("a", 73) + "\n", nil, "72"},
		{"x\n", []string{"extra"}, "unexpected argument"},
	} {
		code, _, stderr := recRun(t, []byte(c.stdin), append([]string{"passwd"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("passwd %v < %q: exit %d %q, want 2 mentioning %q", c.args, c.stdin, code, stderr, c.want)
		}
	}
	if code, out, _ := recRun(t, nil, "passwd", "--help"); code != 0 || !strings.Contains(out, "-cost") {
		t.Errorf("passwd --help: exit %d %s", code, out)
	}
}
