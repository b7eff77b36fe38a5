package handhistory_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/handhistory"
	"github.com/fechado/fechado/internal/testfiles"
)

// roomFixtures are the five-card draw files of the other rooms in testdata/hh (FPDB's regression
// files, see its README), with the hands each holds.
var roomFixtures = map[handhistory.Format]map[string]int{
	handhistory.FullTilt: {
		"5-Carddraw-Limit-USD-0.10-0.20-201011.Sample.txt":    1,
		"5-Carddraw-NL-USD-0.10-0.20-201011.Saw.Showdown.txt": 1,
		"5-Carddraw-PL-0.10-0.25-201011.Sample.txt":           1,
	},
	handhistory.OnGame: {
		"5-Carddraw-PL-USD-1.00-1.00-201111.No.Street.Delimiter.txt": 1,
		"5-Carddraw-USD-0.05-0.10-201009.Sample.txt":                 4,
		"5-Carddraw-USD-1-2-201109.Goalwin.Sample.txt":               10,
	},
	handhistory.Boss: {
		"5CD-FL-EUR-2-4.Opoker.sample.xml": 14,
		"5CD-PL-EUR-0.50-1.00-201307.txt":  1,
	},
	handhistory.Merge: {
		"5-Carddraw-PL-USD-0.05-0.10.201111.txt": 1,
	},
}

// Every fixture is recognised by --format auto as the room that wrote it.
func TestDetectRecognisesEveryFixture(t *testing.T) {
	for f, files := range roomFixtures {
		for file := range files {
			data, err := os.ReadFile(testfiles.File(t, "hh", string(f), file))
			if err != nil {
				t.Fatal(err)
			}
			if got := handhistory.Detect(data); got != f {
				t.Errorf("%s: detected %q, want %s", file, got, f)
			}
		}
	}
	for _, path := range append(realFiles(t), "testdata/phh/fixed-showdown.phh") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := handhistory.PokerStars
		if strings.HasSuffix(path, ".phh") {
			want = handhistory.PHH
		}
		if got := handhistory.Detect(data); got != want {
			t.Errorf("%s: detected %q, want %s", path, got, want)
		}
	}
	if got := handhistory.Detect([]byte("hello\n")); got != "" {
		t.Errorf("plain text detected as %q", got)
	}
}

// Every fixture of every importer imports whole and audits clean (issue 45), and a second import
// gives the same bytes (ids stable on re-import).
func TestRoomFixturesImportAndAuditClean(t *testing.T) {
	for f, files := range roomFixtures {
		for file, hands := range files {
			t.Run(string(f)+"/"+file, func(t *testing.T) {
				path := testfiles.File(t, "hh", string(f), file)
				res := importFile(t, f, path)
				if len(res.Hands) != hands || len(res.Skipped) != 0 {
					t.Fatalf("%d hands (want %d), skipped %v", len(res.Hands), hands, res.Skipped)
				}
				for _, h := range res.Hands {
					checkEvents(t, h)
				}
				for _, fd := range auditImported(t, res) {
					if fd.Severity == finding.Error {
						t.Errorf("%s", fd.JSON())
					}
				}
				again := importFile(t, f, path)
				for i, h := range again.Hands {
					for k, e := range h.Events {
						if string(e.Raw) != string(res.Hands[i].Events[k].Raw) {
							t.Fatalf("hand %d event %d differs on re-import", i, k)
						}
					}
				}
			})
		}
	}
}

// testfilesGlob lists the files of testdata/hh/PATTERN.
func testfilesGlob(tb testing.TB, pattern string) []string {
	tb.Helper()
	return testfiles.Glob(tb, "hh/"+pattern)
}
