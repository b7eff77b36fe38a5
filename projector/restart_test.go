package projector

import (
	"context"
	"database/sql"
	"errors"
	"testing"
)

// failingSource delivers n messages of its source, then fails: a crash before the commit.
type failingSource struct {
	Source
	n int
}

var errInjected = errors.New("injected failure")

func (s *failingSource) Read(ctx context.Context, from uint64, fn func(Message) error) error {
	return s.Source.Read(ctx, from, func(m Message) error {
		if s.n == 0 {
			return errInjected
		}
		s.n--
		return fn(m)
	})
}

// failAfter runs a projector of src into db, BatchSize batch, that fails after n messages (a
// crash before a commit), and returns it.
func failAfter(t *testing.T, db *sql.DB, src Source, n, batch int) *Projector {
	t.Helper()
	p := New(db, &failingSource{Source: src, n: n})
	p.BatchSize = batch
	if _, err := p.CatchUp(context.Background()); !errors.Is(err, errInjected) {
		t.Fatalf("cut %d: %v, want the injected failure", n, err)
	}
	return p
}

// cutStride returns the distance between the cuts of the tests that cut a projection at many
// points and resume it: full under the full suite, four times as far under -short, which still
// cuts in the middle of hands of every table but resumes a quarter as many projections.
func cutStride(full int) int {
	if testing.Short() {
		return 4 * full
	}
	return full
}

// A projection cut at any point and resumed by a new projector (memory lost, as after a crash)
// gives the rows of an uninterrupted one; so does the same projector resuming after its error.
// Under -short the cuts are further apart (cutStride); the full suite cuts every 113 messages.
func TestResumeFromAFileAfterFailureAtAnyPoint(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 1)
	path := writeLines(t, t.TempDir(), lines)
	clean := openDB(t)
	project(t, clean, path, 0)
	want := dump(t, clean)

	for cut := 1; cut < len(lines); cut += cutStride(113) {
		for _, sameProjector := range []bool{false, true} {
			db := openDB(t)
			src := &FileSource{Path: path}
			p := failAfter(t, db, src, cut, 16)
			if cp := p.Checkpoint(); cp != 0 {
				t.Fatalf("cut %d: checkpoint %d kept in memory after a failure", cut, cp)
			}
			var committed uint64
			db.QueryRow(`SELECT stream_seq FROM checkpoint`).Scan(&committed)
			if committed > uint64(cut) || uint64(cut)-committed >= 16 {
				t.Fatalf("cut %d: committed checkpoint %d, want the last full batch", cut, committed)
			}
			if sameProjector {
				p.Source = src
			} else {
				p = New(db, src)
				p.BatchSize = 7
			}
			pr, err := p.CatchUp(ctx)
			if err != nil {
				t.Fatalf("cut %d: resume: %v", cut, err)
			}
			if pr.Events != len(lines)-int(committed) {
				t.Errorf("cut %d: resumed %d events, want %d", cut, pr.Events, len(lines)-int(committed))
			}
			if got := dump(t, db); got != want {
				t.Fatalf("cut %d (same projector %v): rows differ from a clean projection: %s", cut, sameProjector, firstDiff(want, got))
			}
		}
	}
}

// Two projectors writing one database: the second notices the checkpoint moved under it.
func TestCheckpointMovedUnderTheProjector(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 1)
	half := writeLines(t, t.TempDir(), lines[:len(lines)/2])
	full := writeLines(t, t.TempDir(), lines)
	db := openDB(t)
	p1 := New(db, &FileSource{Path: half})
	p2 := New(db, &FileSource{Path: half})
	if _, err := p1.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p2.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	p1.Source = &FileSource{Path: full}
	if _, err := p1.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	p2.Source = &FileSource{Path: full}
	if _, err := p2.CatchUp(ctx); !errors.Is(err, ErrCheckpointMoved) {
		t.Fatalf("second projector: %v, want ErrCheckpointMoved", err)
	}
}

// A projector of another name does not write over the read models.
func TestOtherProjectorRefused(t *testing.T) {
	lines := buildCorpus(t, 1)
	path := writeLines(t, t.TempDir(), lines)
	db := openDB(t)
	project(t, db, path, 0)
	p := New(db, &FileSource{Path: path})
	p.Name = "other"
	if _, err := p.CatchUp(context.Background()); !errors.Is(err, ErrOtherProjector) {
		t.Fatalf("CatchUp: %v, want ErrOtherProjector", err)
	}
}
