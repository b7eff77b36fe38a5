package recorder_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/roles"
	"github.com/nats-io/nats.go"
)

// TestMayPublishIsTheServersDecision: roles.User.MayPublish, which the HTTP API and the console
// ask ("may this user append to this table"), answers as the NATS server does with the same
// users (recorder.ServerUsers): for each role and each subject, a publish the function allows
// reaches a subscriber, and one it refuses draws a permissions violation from the server.
func TestMayPublishIsTheServersDecision(t *testing.T) {
	a := &roles.Auth{Users: []roles.User{
		{Name: "dealer-a", Password: "pw-a", Role: roles.Table, Table: "ta"},
		{Name: "tms", Password: "pw-tms", Role: roles.App},
		{Name: "auditor", Password: "pw-aud", Role: roles.Auditor},
		{Name: "screen", Password: "pw-screen", Role: roles.Spectator, Table: "ta"},
	}}
	s := startAuthServer(t, a)
	watch := connect(t, s, recorder.AppUser, "pw-app")
	sub, err := watch.nc.SubscribeSync(">")
	if err != nil {
		t.Fatal(err)
	}
	if err := watch.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	subjects := []string{
		roles.HandSubject("ta", "h1"), roles.HandSubject("tb", "h1"), roles.HandSubject("tab", "h1"),
		roles.PublicSubject("ta", "h1"), "$KV." + recorder.LegacyIndexBucket + ".h1.ta",
		"$JS.API.STREAM.CREATE.EVIL", "$JS.API.STREAM.DELETE." + roles.Stream, "other.subject",
	}
	for _, u := range a.Users {
		c := connect(t, s, u.Name, u.Password, nats.CustomInboxPrefix(roles.InboxPrefix(u.Name)))
		for i, subj := range subjects {
			payload := []byte(u.Name + "/" + strings.Repeat("x", i))
			if err := c.nc.Publish(subj, payload); err != nil {
				t.Fatal(err)
			}
			if u.MayPublish(subj) {
				m, err := sub.NextMsg(5 * time.Second)
				if err != nil || m.Subject != subj || string(m.Data) != string(payload) {
					t.Errorf("%s (%s) may publish %s by MayPublish, but the server did not deliver it: %v", u.Name, u.Role, subj, err)
				}
				continue
			}
			select {
			case err := <-c.errs:
				if !errors.Is(err, nats.ErrPermissionViolation) || !strings.Contains(err.Error(), subj) {
					t.Errorf("%s publishing %s: %v, want a permissions violation", u.Name, subj, err)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("%s (%s) may not publish %s by MayPublish, but the server let it through", u.Name, u.Role, subj)
				sub.NextMsg(time.Second) // the message it let through
			}
		}
	}
}
