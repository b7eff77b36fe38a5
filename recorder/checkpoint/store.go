package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fechado/fechado/recorder"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The stream the signed checkpoints and the witnesses' co-signatures are stored on, beside the
// log (docs/security.md): one subject per tree size, nothing ever deleted.
const (
	// StreamName is the stream of checkpoints and co-signatures.
	StreamName = "FECHADO_TLOG"
	// StreamSubjects is what the stream captures.
	StreamSubjects = "fechado.tlog.>"
	// CheckpointPrefix + "<size>" holds the signed checkpoint of that tree size.
	CheckpointPrefix = "fechado.tlog.checkpoint."
	// CosignaturePrefix + "<size>" holds witnesses' co-signature lines of that checkpoint.
	CosignaturePrefix = "fechado.tlog.cosignature."
)

// StreamConfig is the configuration of the checkpoint stream: file storage, no limits, deletes,
// purges and roll-ups denied, so that a stored checkpoint stays as it was signed. The application
// user may append (publish) but, as on the log's stream, not update, delete or purge; a second
// message on a checkpoint's subject does not replace the first, which is the one read.
func StreamConfig(replicas int) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        StreamName,
		Description: "fechado transparency log: signed checkpoints and co-signatures",
		Subjects:    []string{StreamSubjects},
		Retention:   jetstream.LimitsPolicy,
		MaxMsgs:     -1, MaxBytes: -1, MaxMsgsPerSubject: -1, MaxMsgSize: -1,
		Discard:     jetstream.DiscardNew,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
		DenyDelete:  true,
		DenyPurge:   true,
		AllowRollup: false,
		AllowDirect: true,
	}
}

// ConfigProblems lists how c fails to keep the checkpoints and co-signatures as StreamConfig
// does (recorder.AppendOnlyProblems: deletes, purges, roll-ups, limits, storage, its subjects…),
// each as a sentence naming the setting. Nil means c keeps them. The replica count is not
// checked: it follows the log's stream.
func ConfigProblems(c jetstream.StreamConfig) []string {
	return recorder.AppendOnlyProblems(c, StreamSubjects, "checkpoints and co-signatures", "a tree size")
}

// ErrStreamConfig: the existing stream FECHADO_TLOG does not keep what StreamConfig keeps (someone
// created it otherwise). OpenStore refuses it, naming the settings.
var ErrStreamConfig = errors.New("checkpoint: the stream " + StreamName + " is not configured as checkpoint.StreamConfig requires")

// Store is the stream of signed checkpoints.
type Store struct {
	js     jetstream.JetStream
	stream jetstream.Stream
}

// ErrNoStore is returned by OpenStore without create when the stream does not exist.
var ErrNoStore = errors.New("checkpoint: no checkpoint has ever been stored (stream " + StreamName + " missing)")

// ErrNoCheckpoint is returned when no stored checkpoint answers the question.
var ErrNoCheckpoint = errors.New("checkpoint: no stored checkpoint")

// OpenStore binds the checkpoint stream of log l; with create it creates it when missing (the
// replica count of the log's own stream). Readers (verify, prove, report) never create it. A
// stream of that name that does not keep its messages as StreamConfig does (ConfigProblems: one
// created beforehand by someone else, with deletes or purges allowed…) is refused with
// ErrStreamConfig, for writers and readers alike, as the log's own stream is (recorder.ConfigProblems).
func OpenStore(ctx context.Context, l *recorder.Log, create bool) (*Store, error) {
	js := l.JetStream()
	st, err := js.Stream(ctx, StreamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		if !create {
			return nil, ErrNoStore
		}
		replicas := 1
		if info := l.Stream().CachedInfo(); info != nil && info.Config.Replicas > 0 {
			replicas = info.Config.Replicas
		}
		// Created by the user who may (embedded: this process's set-up user), bound through l's.
		sjs, done, serr := l.SetupJetStream()
		if serr != nil {
			return nil, fmt.Errorf("checkpoint: stream %s: %w", StreamName, serr)
		}
		_, err = sjs.CreateStream(ctx, StreamConfig(replicas))
		done()
		if err == nil || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			st, err = js.Stream(ctx, StreamName)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: stream %s: %w", StreamName, err)
	}
	info := st.CachedInfo()
	if info == nil {
		return nil, fmt.Errorf("checkpoint: stream %s: no configuration", StreamName)
	}
	if ps := ConfigProblems(info.Config); len(ps) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrStreamConfig, strings.Join(ps, "; "))
	}
	return &Store{js: js, stream: st}, nil
}

// Put stores a signed checkpoint of tree size size. It is refused (ErrExists) when that size has
// a checkpoint already: the first one stays.
func (s *Store) Put(ctx context.Context, size int64, signed []byte) error {
	_, err := s.js.PublishMsg(ctx, &nats.Msg{Subject: CheckpointPrefix + strconv.FormatInt(size, 10), Data: signed},
		jetstream.WithExpectLastSequencePerSubject(0))
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence {
		return fmt.Errorf("%w: tree size %d", ErrExists, size)
	}
	if err != nil {
		return fmt.Errorf("checkpoint: storing the checkpoint of size %d: %w", size, err)
	}
	return nil
}

// ErrExists: a checkpoint of that size is stored already.
var ErrExists = errors.New("checkpoint: a checkpoint of this size is stored already")

// Latest returns the most recently stored signed checkpoint.
func (s *Store) Latest(ctx context.Context) ([]byte, error) {
	m, err := s.stream.GetLastMsgForSubject(ctx, CheckpointPrefix+"*")
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, ErrNoCheckpoint
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: reading the latest checkpoint: %w", err)
	}
	return m.Data, nil
}

// At returns the stored checkpoint of tree size size (the first stored on its subject).
func (s *Store) At(ctx context.Context, size int64) ([]byte, error) {
	m, err := s.stream.GetMsg(ctx, 1, jetstream.WithGetMsgSubject(CheckpointPrefix+strconv.FormatInt(size, 10)))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, fmt.Errorf("%w of size %d", ErrNoCheckpoint, size)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: reading the checkpoint of size %d: %w", size, err)
	}
	return m.Data, nil
}

// each calls fn with every stored message on subjects matching filter, in stream order, with its
// stream sequence. fn may return errStop to stop early.
func (s *Store) each(ctx context.Context, filter string, fn func(seq uint64, subject string, data []byte) error) error {
	for seq := uint64(1); ; seq++ {
		m, err := s.stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(filter))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("checkpoint: reading %s: %w", StreamName, err)
		}
		if err := fn(m.Sequence, m.Subject, m.Data); errors.Is(err, errStop) {
			return nil
		} else if err != nil {
			return err
		}
		seq = m.Sequence
	}
}

// errStop stops each.
var errStop = errors.New("stop")

// All calls fn with every stored checkpoint, in the order they were stored: its tree size and
// the signed note.
func (s *Store) All(ctx context.Context, fn func(size int64, signed []byte) error) error {
	return s.each(ctx, CheckpointPrefix+"*", func(_ uint64, subject string, data []byte) error {
		size, err := strconv.ParseInt(strings.TrimPrefix(subject, CheckpointPrefix), 10, 64)
		if err != nil {
			return nil // not a subject fechado writes
		}
		return fn(size, data)
	})
}

// AddCosignature stores a witness's co-signature line ("— name base64\n") of the checkpoint of
// tree size size, unless dup says that a line stored for that size already makes it a repeat (the
// same witness's verified line); it reports whether it stored it. Reading the stored lines and
// appending are one step: the line is published expecting the subject's last sequence read, and
// the lines are read again when another came in between, so two posts at once (on one node or
// two) cannot both store a line of the same witness.
func (s *Store) AddCosignature(ctx context.Context, size int64, line string, dup func(stored string) bool) (bool, error) {
	subject := CosignaturePrefix + strconv.FormatInt(size, 10)
	for range 16 {
		var last uint64
		repeated := false
		err := s.each(ctx, subject, func(seq uint64, _ string, data []byte) error {
			if last = seq; dup != nil && dup(string(data)) {
				repeated = true
				return errStop
			}
			return nil
		})
		if err != nil || repeated {
			return false, err
		}
		_, err = s.js.Publish(ctx, subject, []byte(line), jetstream.WithExpectLastSequencePerSubject(last))
		var apiErr *jetstream.APIError
		if errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence {
			continue // another line came in between: read them again
		}
		if err != nil {
			return false, fmt.Errorf("checkpoint: storing a co-signature: %w", err)
		}
		return true, nil
	}
	return false, fmt.Errorf("checkpoint: storing a co-signature of tree size %d: the stored lines kept changing", size)
}

// Cosignatures returns the co-signature lines stored for the checkpoint of tree size size, each
// once, as stored: checked when they were posted, not when they are read (WithCosignatures checks
// them).
func (s *Store) Cosignatures(ctx context.Context, size int64) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	err := s.each(ctx, CosignaturePrefix+strconv.FormatInt(size, 10), func(_ uint64, _ string, data []byte) error {
		if l := string(data); !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
		return nil
	})
	return out, err
}

// WithCosignatures returns the signed checkpoint with the stored co-signatures of the witnesses
// whose verifier keys are given appended: of each key, the first stored line that verifies, so
// that lines someone stored past the checks (before them, or by publishing to the stream) can
// neither be served nor make the checkpoint unreadable. The note never carries more signature
// lines than note.Open reads (MaxSignatures).
func (s *Store) WithCosignatures(ctx context.Context, signed []byte, witnessKeys []string) ([]byte, error) {
	text := noteText(signed)
	c, err := ParseCheckpoint(text)
	if err != nil {
		return nil, err
	}
	vs, err := cosignatureVerifiers(witnessKeys)
	if err != nil || len(vs) == 0 {
		return signed, err
	}
	lines, err := s.Cosignatures(ctx, c.Size)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), signed...)
	room := MaxSignatures - strings.Count(string(signed[len(text):]), "\n— ")
	for _, vl := range verifiedCosignatures(text, lines, vs) {
		if room <= 0 {
			break
		}
		if !strings.Contains(string(out[len(text):]), vl.line) {
			out = append(out, vl.line...)
			room--
		}
	}
	return out, nil
}

// noteText returns the text of a signed note: everything before the blank line.
func noteText(signed []byte) string {
	s := string(signed)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		return s[:i+1]
	}
	return s
}
