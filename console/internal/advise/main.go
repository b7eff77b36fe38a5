//go:build js && wasm

// Command advise is the rules engine of package rules compiled to WebAssembly for the table
// console's offline mode: the page asks it, as it asks the server online, which step comes next
// and what each player may do, from the hand's events so far. The same code decides online and
// offline; nothing of the rules is written again in JavaScript. It also hashes a line (SHA-256),
// the prev of the next event, where the browser has no WebCrypto (a page served over plain HTTP).
//
// Built by go generate ./console (console/offline.go) into console/assets/offline/advise.wasm.
package main

import (
	"encoding/json"
	"strings"
	"syscall/js"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// answer is what fechadoAdvise returns, as JSON: the advice, as the console's API gives it, or
// the reason the events cannot be followed.
type answer struct {
	Advice  *rules.Advice `json:"advice,omitempty"`
	StubLen int           `json:"stub_len"`
	Error   string        `json:"error,omitempty"`
}

func advise(lines string) answer {
	var evs []*events.Event
	for _, ln := range strings.Split(lines, "\n") {
		if strings.TrimSpace(ln) == "" {
			continue
		}
		e, err := events.Parse([]byte(ln))
		if err != nil {
			return answer{Error: err.Error()}
		}
		evs = append(evs, e)
	}
	a, h, err := rules.AdviseWith(evs, rules.Context{})
	if err != nil {
		return answer{Error: err.Error()}
	}
	return answer{Advice: &a, StubLen: h.StubSet().Len()}
}

func main() {
	js.Global().Set("fechadoAdvise", js.FuncOf(func(_ js.Value, args []js.Value) any {
		b, _ := json.Marshal(advise(args[0].String()))
		return string(b)
	}))
	js.Global().Set("fechadoHash", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return events.Hash([]byte(args[0].String()))
	}))
	select {} // the functions live as long as the page
}
