package checkpoint_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/fechado/fechado/recorder/checkpoint"
)

// The co-signature route takes no login, but a page of another site may not post to it: the
// same cross-site rule as every other write (webguard.CrossSite), before the body is read.
func TestCosignaturePostRefusesCrossSiteWrites(t *testing.T) {
	x := newWitnessed(t)
	body := x.cosign(t)
	for _, c := range []struct {
		name, ctype string
		headers     []string
	}{
		{"text/plain (a form or a no-cors fetch)", "text/plain; charset=utf-8", nil},
		{"a form", "application/x-www-form-urlencoded", nil},
		{"no content type", "", nil},
		{"another site's page", checkpoint.CosignatureContentType, []string{"Origin", "https://evil.example"}},
		{"a cross-site fetch", checkpoint.CosignatureContentType, []string{"Sec-Fetch-Site", "cross-site"}},
	} {
		if code, answer := x.post(t, body, c.ctype, c.headers...); code != 403 || !strings.Contains(answer, "cross-site") {
			t.Errorf("%s: %d %s", c.name, code, answer)
		}
	}
	if lines, _ := x.k.Store().Cosignatures(t.Context(), 10); len(lines) != 0 {
		t.Fatalf("a cross-site post stored %d lines", len(lines))
	}
	// The witness, a program, posts with its content type and is heard.
	if st, err := x.w.Round(t.Context()); err != nil || !st.Cosigned {
		t.Fatalf("the witness: %+v %v", st, err)
	}
}

// A body over the limit is refused unread (413), whoever sends it.
func TestCosignatureBodyOverTheLimitIsRefused(t *testing.T) {
	x := newWitnessed(t)
	big := append(x.cosign(t), strings.Repeat("— x "+strings.Repeat("A", 100)+"\n", 700)...)
	if code, answer := x.post(t, big, checkpoint.CosignatureContentType); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a %d-byte body: %d %s", len(big), code, answer)
	}
}
