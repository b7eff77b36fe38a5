package recorder

import (
	"context"
	"fmt"

	"github.com/fechado/fechado/roles"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ServerUsers returns the embedded server's users for an auth file: one per user, with the
// subject permissions of its role (roles.User.Permissions), so that the server itself refuses
// what a role may not do. Passwords go through as written: the server accepts a bcrypt hash in
// place of a clear password. They are added to fechado's own users (AppUser and the admin);
// roles.Auth.Check keeps an auth file from redefining those.
func ServerUsers(a *roles.Auth) []*server.User {
	out := make([]*server.User, 0, len(a.Users))
	for _, u := range a.Users {
		p := u.Permissions()
		out = append(out, &server.User{
			Username: u.Name,
			Password: u.Password,
			Permissions: &server.Permissions{
				Publish:   subjectPermission(p.Publish),
				Subscribe: subjectPermission(p.Subscribe),
			},
		})
	}
	return out
}

func subjectPermission(r roles.SubjectRule) *server.SubjectPermission {
	if len(r.Allow) == 0 && len(r.Deny) == 0 {
		return nil
	}
	return &server.SubjectPermission{Allow: append([]string(nil), r.Allow...), Deny: append([]string(nil), r.Deny...)}
}

// LoadAuth reads the auth file at path (roles.Load) and returns its users for the embedded
// server's Options.Users. Errors about the file's content wrap roles.ErrInvalid.
func LoadAuth(path string) ([]*server.User, error) {
	a, err := roles.Load(path)
	if err != nil {
		return nil, fmt.Errorf("recorder: auth file: %w", err)
	}
	return ServerUsers(a), nil
}

// PublishPublic follows the log from stream sequence from (0 or 1 = the start) and publishes
// what spectators may see on the public subjects, fechado.public.<table>.<hand> (core NATS, not
// stored): the roles.PublicView of each event while its hand runs, and once the hand has ended
// its redacted and withheld events in full (roles.Public); the header roles.ViewHeader of each
// message says which view it is. A spectator subscribed there never receives a
// face-down card or a seed of a hand in progress. It runs until ctx is done (then it returns
// ctx's error) or publishing fails. The log's user must be allowed to publish to
// fechado.public.> (AppUser is).
func (l *Log) PublishPublic(ctx context.Context, from uint64) error {
	pub := roles.NewPublic()
	return l.Follow(ctx, from, func(s Stored) error {
		for _, v := range pub.Next(s.Event) {
			m := &nats.Msg{Subject: roles.PublicSubject(v.Table, v.Hand), Data: v.JSON(),
				Header: nats.Header{roles.ViewHeader: []string{v.Kind}}}
			if err := l.nc.PublishMsg(m); err != nil {
				return fmt.Errorf("recorder: publishing the public view of %s seq %d: %w", v.Hand, v.Seq, err)
			}
		}
		return nil
	})
}
