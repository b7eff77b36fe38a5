package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/fechado/fechado/recorder"
	"github.com/nats-io/nats.go/jetstream"
)

// plainFlag makes benchreport the baseline of `fechado record` instead of the report: it opens
// the log stored under -data the way fechado does (the same embedded server, the same stream) and
// publishes every line of the files to its hand's subject with plain asynchronous publishes, no
// headers, no checks, no decoding beyond finding the subject, and waits for every ack.
//
// dedupFlag is the same with one header: each line's event id as its Nats-Msg-Id, the
// de-duplication that every append of fechado carries. The server then checks and keeps each id,
// which is part of what record costs and plain publishes do not pay.
const (
	plainFlag = "-publish-plain"
	dedupFlag = "-publish-plain-dedup"
)

// publishPlain runs the baseline: benchreport -publish-plain DIR FILE…, or with dedup
// -publish-plain-dedup.
func publishPlain(args []string, dedup bool) error {
	if len(args) < 2 {
		return errors.New("usage: benchreport -publish-plain[-dedup] DIR FILE…")
	}
	ctx := context.Background()
	l, err := recorder.Open(ctx, recorder.Options{DataDir: args[0], Timeout: time.Minute})
	if err != nil {
		return err
	}
	defer l.Close()
	js, err := jetstream.New(l.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		return err
	}
	for _, name := range args[1:] {
		if err := publishFile(js, name, dedup); err != nil {
			return err
		}
	}
	select {
	case <-js.PublishAsyncComplete():
		return nil
	case <-time.After(10 * time.Minute):
		return errors.New("plain publishes not acknowledged")
	}
}

func publishFile(js jetstream.JetStream, name string, dedup bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		table, hand := jsonString(line, `"table":"`), jsonString(line, `"hand":"`)
		if table == "" || hand == "" {
			return fmt.Errorf("%s: a line names no table or hand", name)
		}
		opts := []jetstream.PublishOpt{jetstream.WithStallWait(time.Minute)}
		if dedup {
			id := jsonString(line, `"id":"`)
			if id == "" {
				return fmt.Errorf("%s: a line has no id", name)
			}
			opts = append(opts, jetstream.WithMsgID(id))
		}
		if _, err := js.PublishAsync(recorder.Subject(table, hand), bytes.Clone(line), opts...); err != nil {
			return err
		}
	}
	return sc.Err()
}

// jsonString returns the string value that follows key in a JSON line written by fechado sim
// (table and hand ids hold no quotes or escapes), "" when key is missing.
func jsonString(line []byte, key string) string {
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return ""
	}
	rest := line[i+len(key):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return ""
	}
	return string(rest[:end])
}
