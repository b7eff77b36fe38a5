package roles

import "github.com/fechado/fechado/events"

// View is what a spectator sees of one event, published on PublicSubject(table, hand) with the
// header ViewHeader saying which view it is: while its hand is in progress the event's
// events.Public view (nothing nobody at the table has seen face up), once the hand has ended
// everything of it (FullView). Either is a valid v1 event without prev (its Raw, the payload
// published), not a stored line, and must not be taken for one. What a view hides is decided by
// events.Public; roles decides who receives which.
type View struct {
	*events.Event
	// Redacted is set when the view hides cards of the event (events.Redacted).
	Redacted bool
	// Kind is ViewPublic or ViewFull (not part of the event's JSON: see ViewHeader).
	Kind string
}

// ViewHeader is the NATS header of a message on a public subject; its value is ViewPublic or
// ViewFull.
const ViewHeader = "Fechado-View"

// The values of ViewHeader.
const (
	ViewPublic = "public" // a hand in progress: events.Public, face-down cards taken out
	ViewFull   = "full"   // FullView: a hand that ended, everything but prev
)

// publicView is the events.Public view of e as a View of kind ViewPublic.
func publicView(e *events.Event) (View, bool) {
	v, ok := events.Public(e)
	if !ok {
		return View{}, false
	}
	return View{Event: v, Redacted: events.Redacted(e, v), Kind: ViewPublic}, true
}

// FullView returns e with all its data (still without prev), for a hand that has ended: its
// face-down cards and seeds are no secret any more. An event without data shows nothing.
func FullView(e *events.Event) (View, bool) {
	if e == nil || e.Data == nil {
		return View{}, false
	}
	return View{Event: events.Unsealed(e, e.Data), Kind: ViewFull}, true
}

// JSON returns the view as one JSON object, the payload published on the public subject.
func (v View) JSON() []byte { return v.Raw }

// Public follows a log in order and says what to publish on the public subjects: the
// events.Public view of each event of a hand in progress; at a hand's hand.ended, after its view,
// the FullView of the events that were redacted or withheld, so the seed and the face-down cards
// come out once the hand is over. It holds only those events of hands still open. Not safe for concurrent use.
type Public struct {
	withheld map[string][]*events.Event
}

// NewPublic returns an empty Public.
func NewPublic() *Public { return &Public{withheld: map[string][]*events.Event{}} }

// Next returns the views to publish for e, in order (none when e cannot be shown).
func (p *Public) Next(e *events.Event) []View {
	v, ok := publicView(e)
	if !ok {
		if e != nil && e.Data != nil {
			p.withheld[e.Hand] = append(p.withheld[e.Hand], e) // shown at hand.ended
		}
		return nil
	}
	out := []View{v}
	if v.Redacted {
		p.withheld[e.Hand] = append(p.withheld[e.Hand], e)
	}
	if e.Type == events.HandEndedType {
		for _, w := range p.withheld[e.Hand] {
			if f, ok := FullView(w); ok {
				out = append(out, f)
			}
		}
		delete(p.withheld, e.Hand)
	}
	return out
}

// Open returns how many hands have redacted events held back.
func (p *Public) Open() int { return len(p.withheld) }
