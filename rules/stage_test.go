package rules

import (
	"encoding/json"
	"testing"
)

// The stage names are the one vocabulary of a hand's stage: the replay state's "stage", the live
// tables' and the API's.
func TestStageNames(t *testing.T) {
	for _, c := range []struct {
		s    Stage
		want string
	}{
		{StageSetup, "setup"}, {StageDeal, "deal"}, {StageBetting, "betting"}, {StageDraw, "draw"},
		{StageShowdown, "showdown"}, {StageSettle, "settle"}, {StageEnded, "ended"}, {Stage(99), "stage(99)"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("Stage(%d).String() = %q, want %q", int(c.s), got, c.want)
		}
		b, err := json.Marshal(c.s)
		if err != nil || string(b) != `"`+c.want+`"` {
			t.Errorf("Stage(%d) as JSON: %s %v", int(c.s), b, err)
		}
	}
}
