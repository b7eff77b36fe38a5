package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A client that sends a request's body too slowly is cut off when the body's deadline passes
// (withBodyDeadline): its handler's read fails instead of holding the connection for ever. A
// request without a body, as the live pages' streams of events are, keeps its context past the
// deadline.
func TestSlowBodyIsCutOffAndABodilessRequestIsNot(t *testing.T) {
	const deadline = 100 * time.Millisecond
	read := make(chan error, 1)
	h := withBodyDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			// A stream's request: it outlives the deadline, and its context must not end.
			select {
			case <-r.Context().Done():
				http.Error(w, "cancelled", http.StatusServiceUnavailable)
			case <-time.After(5 * deadline):
				fmt.Fprint(w, "still here")
			}
			return
		}
		_, err := io.ReadAll(r.Body)
		read <- err
		if err != nil {
			http.Error(w, "the body came too slowly", http.StatusRequestTimeout)
		}
	}), deadline)
	srv := httptest.NewServer(h)
	defer srv.Close()

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// 10 of the 100 bytes the request announces, and then nothing.
	if _, err := fmt.Fprint(conn, "POST /api/events HTTP/1.1\r\nHost: fechado\r\nContent-Length: 100\r\n\r\n0123456789"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-read:
		if err == nil {
			t.Fatal("the handler read a body of 10 bytes of 100 whole")
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the handler still waits for the body 20 s on (its deadline: %v)", deadline)
	}

	resp, err := http.Get(srv.URL + "/api/live")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(b) != "still here" {
		t.Fatalf("a request without a body, past the deadline: %d %q", resp.StatusCode, b)
	}
}
