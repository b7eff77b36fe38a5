package recorder_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go/jetstream"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/fechado/fechado/recorder"
	"github.com/nats-io/nats.go"
)

func TestZZExp(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	hands := 200_000
	b := &testing.B{}
	_ = b
	cachedLogT(t, hands).Close()
	dir := filepath.Join(os.TempDir(), "fechado-bench", fmt.Sprintf("%s-%d", sizeLayout, hands), "store")
	ctx := t.Context()
	for _, mode := range []string{"lookup", "getmsg", "lookup"} {
		l, err := recorder.Open(ctx, recorder.Options{DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		var v []time.Duration
		for k := 0; k < 25; k++ {
			i := k*8000 + 1234
			hand, table := sizeHand(i)
			seq := uint64(2*i + 1)
			start := time.Now()
			switch mode {
			case "getmsg":
				if _, err := l.Stream().GetMsg(ctx, seq); err != nil {
					t.Fatal(err)
				}
			case "lookup":
				if _, err := l.HandSubject(ctx, hand); err != nil {
					t.Fatal(err)
				}
			case "lastmsg":
				if _, err := l.Stream().GetLastMsgForSubject(ctx, recorder.Subject(table, hand)); err != nil {
					t.Fatal(err)
				}
			case "batch":
				req, _ := json.Marshal(map[string]any{"seq": seq, "next_by_subj": recorder.Subject(table, hand), "batch": 64})
				inbox := nats.NewInbox()
				sub, _ := l.Conn().SubscribeSync(inbox)
				l.Conn().PublishRequest("$JS.API.DIRECT.GET."+recorder.StreamName, inbox, req)
				n := 0
				for {
					m, err := sub.NextMsg(5 * time.Second)
					if err != nil {
						t.Fatal(err)
					}
					if len(m.Data) == 0 {
						break
					}
					n++
				}
				sub.Unsubscribe()
				if n != 2 {
					t.Fatal(n)
				}
			case "consumer":
				if err := l.ReadHand(ctx, table, hand, func(recorder.Stored) error { return nil }); err != nil {
					t.Fatal(err)
				}
			}
			v = append(v, time.Since(start))
		}
		l.Close()
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		fmt.Println(mode, v[0], v[len(v)/2], v[len(v)-1])
	}
}
func cachedLogT(b *testing.T, hands int) *recorder.Log {
	b.Helper()
	base := os.Getenv("FECHADO_BENCH_CACHE")
	if base == "" {
		base = filepath.Join(os.TempDir(), "fechado-bench")
	}
	dir := filepath.Join(base, fmt.Sprintf("%s-%d", sizeLayout, hands))
	cfg, err := json.Marshal(recorder.StreamConfig(recorder.DefaultReplicas))
	if err != nil {
		b.Fatal(err)
	}
	mark := fmt.Sprintf("%s %d %s %x\n", sizeLayout, hands, recorder.Subject("t", "h"), sha256.Sum256(cfg))
	done := filepath.Join(dir, "filled")
	if got, err := os.ReadFile(done); err != nil || string(got) != mark {
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		fillLogT(b, filepath.Join(dir, "store"), hands)
		if err := os.WriteFile(done, []byte(mark), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Logf("filled %s with %d hands in %v", dir, hands, time.Since(start).Round(time.Second))
	}
	return recordertest.OpenDir(b, filepath.Join(dir, "store"))
}
func fillLogT(b *testing.T, dir string, hands int) {
	b.Helper()
	l, err := recorder.Open(context.Background(), recorder.Options{DataDir: dir, Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	js, err := jetstream.New(l.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		b.Fatal(err)
	}
	for i := range hands {
		for _, e := range sizeEvents(i) {
			m := &nats.Msg{Subject: recorder.Subject(e.Table, e.Hand), Data: e.Raw, Header: nats.Header{jetstream.MsgIDHeader: []string{e.ID}}}
			if _, err := js.PublishMsgAsync(m, jetstream.WithStallWait(time.Minute)); err != nil {
				b.Fatalf("filling the log, hand %d: %v", i, err)
			}
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(5 * time.Minute):
		b.Fatal("filling the log: publishes not acknowledged")
	}
	info, err := l.Stream().Info(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if info.State.Msgs != uint64(2*hands) {
		b.Fatalf("the log holds %d events, not %d", info.State.Msgs, 2*hands)
	}
}
