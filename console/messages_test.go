package console

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/lang"
)

// TestMessagesComplete: every key the pages ask for (t("key") in console.js and seat.js,
// "remedy." plus each preset's remedy) and every error key the API answers is a console.*
// message of the lang catalogue, and every console.* message is used, so that the four languages
// hold the pages' whole text (go test ./lang/ keeps each language complete).
func TestMessagesComplete(t *testing.T) {
	var js []byte
	for _, f := range []string{"assets/console.js", "assets/seat.js"} { // the console's page, a player's page
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		js = append(js, b...)
	}
	var goSrc []byte
	for _, f := range []string{"console.go", "next.go", "session.go", "seat.go"} { // the handlers
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		goSrc = append(goSrc, b...)
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`\bt\("([a-z_.-]+[a-z])"`).FindAllSubmatch(js, -1) {
		used["console."+string(m[1])] = true
	}
	for _, m := range regexp.MustCompile(`"(err\.[a-z-]+)"`).FindAllSubmatch(goSrc, -1) {
		used["console."+string(m[1])] = true
	}
	for _, m := range regexp.MustCompile(`"(act\.[a-z]+)"`).FindAllSubmatch(js, -1) {
		used["console."+string(m[1])] = true // button labels relabelled by key
	}
	for _, r := range []string{"reshuffle", "keep", "burn-next", "replace-last", "error"} {
		used["console.remedy."+r] = true // t("remedy." + remedy)
	}
	for _, b := range []string{"small", "big", "dead"} {
		used["console.step.blind."+b] = true // t("step.blind." + a.Blind)
	}
	en := lang.English()
	var missing, unused []string
	for k := range used {
		if !en.Has(k) {
			missing = append(missing, k)
		}
	}
	for k := range en.Messages {
		if strings.HasPrefix(k, "console.") && !used[k] {
			unused = append(unused, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(unused)
	if len(missing) > 0 {
		t.Errorf("keys the console uses without a message: %v", missing)
	}
	if len(unused) > 0 {
		t.Errorf("messages nothing uses: %v", unused)
	}
}
