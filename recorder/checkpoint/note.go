package checkpoint

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// Checkpoint is a tree head in the C2SP tlog-checkpoint format: the log's origin (the name of
// the key that signs it), the tree size and the root hash.
type Checkpoint struct {
	Origin string
	Size   int64
	Hash   tlog.Hash
}

// Text returns the checkpoint's note text: three lines, each ending in a newline.
func (c Checkpoint) Text() string {
	return fmt.Sprintf("%s\n%d\n%s\n", c.Origin, c.Size, base64.StdEncoding.EncodeToString(c.Hash[:]))
}

// ErrFormat is returned for a checkpoint, a key or a proof that is not well formed.
var ErrFormat = errors.New("checkpoint: malformed")

// ParseCheckpoint parses a checkpoint's note text. Extension lines after the third are
// allowed (tlog-checkpoint) and ignored.
func ParseCheckpoint(text string) (Checkpoint, error) {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) < 4 || !strings.HasSuffix(text, "\n") {
		return Checkpoint{}, fmt.Errorf("%w checkpoint: fewer than three lines", ErrFormat)
	}
	origin := strings.TrimSuffix(lines[0], "\n")
	size, err := strconv.ParseInt(strings.TrimSuffix(lines[1], "\n"), 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != strings.TrimSuffix(lines[1], "\n") {
		return Checkpoint{}, fmt.Errorf("%w checkpoint: tree size %q", ErrFormat, strings.TrimSpace(lines[1]))
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(lines[2], "\n"))
	if err != nil || len(raw) != tlog.HashSize {
		return Checkpoint{}, fmt.Errorf("%w checkpoint: root hash %q", ErrFormat, strings.TrimSpace(lines[2]))
	}
	if origin == "" {
		return Checkpoint{}, fmt.Errorf("%w checkpoint: empty origin", ErrFormat)
	}
	c := Checkpoint{Origin: origin, Size: size}
	copy(c.Hash[:], raw)
	return c, nil
}

// Signed is a checkpoint opened from a signed note: its log signature checked, and the
// witnesses' co-signatures that were checked against the keys given.
type Signed struct {
	Checkpoint
	// Note is the signed note as given (every signature line).
	Note []byte
	// Log is the log's key name and key hash.
	Log KeyID
	// Witnesses are the witnesses whose co-signatures were verified, with their times.
	Witnesses []Cosigned
}

// KeyID names a key as its signature lines do: the key's name and its 32-bit key hash, which is
// also the second field of its verifier key ("name+hash+key").
type KeyID struct {
	Name string
	Hash uint32
}

// Fingerprint is the key's name and hash as written in its verifier key: "name+0a1b2c3d".
func (k KeyID) Fingerprint() string { return fmt.Sprintf("%s+%08x", k.Name, k.Hash) }

// Cosigned is a verified co-signature.
type Cosigned struct {
	KeyID
	Time time.Time
}

// OpenSigned checks a signed checkpoint: the log's signature by logKey (a verifier key) and the
// co-signatures of the witnesses whose keys are given (cosignature/v1 verifier keys; lines of
// other keys are kept in Note but not counted). The origin must be the log key's name.
func OpenSigned(msg []byte, logKey string, witnessKeys ...string) (*Signed, error) {
	lv, err := note.NewVerifier(strings.TrimSpace(logKey))
	if err != nil {
		return nil, fmt.Errorf("%w log key: %v", ErrFormat, err)
	}
	vs := []note.Verifier{lv}
	for _, k := range witnessKeys {
		wv, err := NewCosignatureVerifier(k)
		if err != nil {
			return nil, err
		}
		vs = append(vs, wv)
	}
	n, err := note.Open(msg, note.VerifierList(vs...))
	if err != nil {
		return nil, fmt.Errorf("checkpoint: the signed checkpoint does not verify: %w", err)
	}
	s := &Signed{Note: msg}
	logSigned := false
	for _, sig := range n.Sigs {
		if sig.Name == lv.Name() && sig.Hash == lv.KeyHash() {
			logSigned = true
			s.Log = KeyID{Name: sig.Name, Hash: sig.Hash}
			continue
		}
		raw, _ := base64.StdEncoding.DecodeString(sig.Base64)
		var at time.Time
		if len(raw) >= 12 {
			at = time.Unix(int64(binary.BigEndian.Uint64(raw[4:12])), 0).UTC()
		}
		s.Witnesses = append(s.Witnesses, Cosigned{KeyID: KeyID{Name: sig.Name, Hash: sig.Hash}, Time: at})
	}
	if !logSigned {
		return nil, fmt.Errorf("checkpoint: the checkpoint is not signed by the log key %s", KeyID{lv.Name(), lv.KeyHash()}.Fingerprint())
	}
	if s.Checkpoint, err = ParseCheckpoint(n.Text); err != nil {
		return nil, err
	}
	if s.Origin != lv.Name() {
		return nil, fmt.Errorf("checkpoint: origin %q is not the log key's name %q", s.Origin, lv.Name())
	}
	return s, nil
}

// Sign signs c with the log's signer (whose name must be c's origin) and returns the note.
func Sign(c Checkpoint, s note.Signer) ([]byte, error) {
	if c.Origin != s.Name() {
		return nil, fmt.Errorf("checkpoint: origin %q is not the signer's name %q", c.Origin, s.Name())
	}
	return note.Sign(&note.Note{Text: c.Text()}, s)
}

// The algorithm bytes of signed-note keys: Ed25519 note signatures, and C2SP tlog-cosignature
// Ed25519 cosignature/v1.
const (
	algEd25519     = 0x01
	algCosignature = 0x04
)

// GenerateKey returns a new signer key and its verifier key for name: a log's note key
// (note.GenerateKey), or with witness a cosignature/v1 key (the same encoding with the
// algorithm byte 0x04, as C2SP tlog-cosignature and signed-note name it).
func GenerateKey(name string, witness bool) (skey, vkey string, err error) {
	if !validName(name) {
		return "", "", fmt.Errorf("%w key name %q: it must be non-empty, without spaces or '+'", ErrFormat, name)
	}
	if !witness {
		return note.GenerateKey(rand.Reader, name)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", "", err
	}
	h := cosignatureKeyHash(name, pub)
	skey = fmt.Sprintf("PRIVATE+KEY+%s+%08x+%s", name, h, base64.StdEncoding.EncodeToString(append([]byte{algCosignature}, priv.Seed()...)))
	return skey, cosignatureVKey(name, pub), nil
}

func validName(name string) bool {
	return name != "" && strings.IndexFunc(name, unicode.IsSpace) < 0 && !strings.Contains(name, "+")
}

func cosignatureVKey(name string, pub ed25519.PublicKey) string {
	return fmt.Sprintf("%s+%08x+%s", name, cosignatureKeyHash(name, pub), base64.StdEncoding.EncodeToString(append([]byte{algCosignature}, pub...)))
}

// cosignatureKeyHash is the key ID of C2SP tlog-cosignature: SHA-256(name || "\n" || 0x04 ||
// public key)[:4].
func cosignatureKeyHash(name string, pub ed25519.PublicKey) uint32 {
	h := sha256.New()
	h.Write([]byte(name + "\n"))
	h.Write([]byte{algCosignature})
	h.Write(pub)
	return binary.BigEndian.Uint32(h.Sum(nil))
}

// ReadKeyFile reads a signer key file (its first non-empty line).
func ReadKeyFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("checkpoint: key: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line, nil
		}
	}
	return "", fmt.Errorf("%w key file %s: empty", ErrFormat, path)
}

// Signer is the log's note signer, which knows its verifier key.
type Signer struct {
	note.Signer
	vkey string
}

// VerifierKey is the log's verifier key.
func (s *Signer) VerifierKey() string { return s.vkey }

// NewSigner returns the log's note signer for a signer key.
func NewSigner(skey string) (*Signer, error) {
	s, err := note.NewSigner(strings.TrimSpace(skey))
	if err != nil {
		return nil, fmt.Errorf("%w signer key: %v (a log key made by 'fechado keygen')", ErrFormat, err)
	}
	vkey, err := VerifierKey(skey)
	if err != nil {
		return nil, err
	}
	return &Signer{Signer: s, vkey: vkey}, nil
}

// VerifierKey returns the verifier key of a signer key (log or witness).
func VerifierKey(skey string) (string, error) {
	name, alg, seed, err := splitSignerKey(skey)
	if err != nil {
		return "", err
	}
	pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	if alg == algCosignature {
		return cosignatureVKey(name, pub), nil
	}
	return note.NewEd25519VerifierKey(name, pub)
}

// splitSignerKey reads "PRIVATE+KEY+name+hash+base64(alg || seed)".
func splitSignerKey(skey string) (name string, alg byte, seed []byte, err error) {
	parts := strings.SplitN(strings.TrimSpace(skey), "+", 5)
	if len(parts) != 5 || parts[0] != "PRIVATE" || parts[1] != "KEY" {
		return "", 0, nil, fmt.Errorf("%w signer key", ErrFormat)
	}
	raw, err := base64.StdEncoding.DecodeString(parts[4])
	if err != nil || len(raw) != 1+ed25519.SeedSize || (raw[0] != algEd25519 && raw[0] != algCosignature) {
		return "", 0, nil, fmt.Errorf("%w signer key", ErrFormat)
	}
	return parts[2], raw[0], raw[1:], nil
}

// Cosigner signs checkpoints as a witness: C2SP tlog-cosignature, Ed25519 cosignature/v1. It is
// a note.Signer, so note.Sign appends its line after the log's.
type Cosigner struct {
	name string
	hash uint32
	key  ed25519.PrivateKey
	// Now is the clock of the signature's timestamp (time.Now when nil).
	Now func() time.Time
}

// NewCosigner returns the witness signer of a cosignature key (keygen --witness).
func NewCosigner(skey string) (*Cosigner, error) {
	name, alg, seed, err := splitSignerKey(skey)
	if err != nil {
		return nil, err
	}
	if alg != algCosignature {
		return nil, fmt.Errorf("%w witness key: not a cosignature key (make one with 'fechado keygen --witness')", ErrFormat)
	}
	k := ed25519.NewKeyFromSeed(seed)
	c := &Cosigner{name: name, key: k, hash: cosignatureKeyHash(name, k.Public().(ed25519.PublicKey))}
	hash16 := strings.SplitN(skey, "+", 5)[3]
	if fmt.Sprintf("%08x", c.hash) != hash16 {
		return nil, fmt.Errorf("%w witness key: its hash does not match its key", ErrFormat)
	}
	return c, nil
}

// Name is the witness's name.
func (c *Cosigner) Name() string { return c.name }

// KeyHash is the witness key's ID.
func (c *Cosigner) KeyHash() uint32 { return c.hash }

// VerifierKey is the witness's cosignature verifier key.
func (c *Cosigner) VerifierKey() string {
	return cosignatureVKey(c.name, c.key.Public().(ed25519.PublicKey))
}

// Sign returns timestamp || Ed25519 signature of "cosignature/v1\ntime T\n" + msg, msg being the
// checkpoint's note text.
func (c *Cosigner) Sign(msg []byte) ([]byte, error) {
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	t := uint64(now().Unix())
	sig := ed25519.Sign(c.key, cosignedMessage(t, msg))
	out := binary.BigEndian.AppendUint64(nil, t)
	return append(out, sig...), nil
}

func cosignedMessage(t uint64, body []byte) []byte {
	var b bytes.Buffer
	b.WriteString("cosignature/v1\ntime ")
	b.WriteString(strconv.FormatUint(t, 10))
	b.WriteString("\n")
	b.Write(body)
	return b.Bytes()
}

// cosignatureVerifier checks cosignature/v1 signatures (a note.Verifier).
type cosignatureVerifier struct {
	name string
	hash uint32
	pub  ed25519.PublicKey
}

// NewCosignatureVerifier returns the verifier of a witness's cosignature verifier key
// ("name+hash+base64(0x04 || key)").
func NewCosignatureVerifier(vkey string) (note.Verifier, error) {
	parts := strings.SplitN(strings.TrimSpace(vkey), "+", 3)
	if len(parts) != 3 || !validName(parts[0]) {
		return nil, fmt.Errorf("%w witness key %q", ErrFormat, vkey)
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 1+ed25519.PublicKeySize || raw[0] != algCosignature {
		return nil, fmt.Errorf("%w witness key %q: not an Ed25519 cosignature/v1 key", ErrFormat, vkey)
	}
	v := &cosignatureVerifier{name: parts[0], pub: raw[1:]}
	v.hash = cosignatureKeyHash(v.name, v.pub)
	if fmt.Sprintf("%08x", v.hash) != parts[1] {
		return nil, fmt.Errorf("%w witness key %q: its hash does not match its key", ErrFormat, vkey)
	}
	return v, nil
}

func (v *cosignatureVerifier) Name() string    { return v.name }
func (v *cosignatureVerifier) KeyHash() uint32 { return v.hash }
func (v *cosignatureVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig[:8])
	if t > 1<<63-1 {
		return false
	}
	return ed25519.Verify(v.pub, cosignedMessage(t, msg), sig[8:])
}

// writeFileAtomic writes data to path through a temporary file in the same folder.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = io.Copy(tmp, bytes.NewReader(data))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, perm)
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// LogKeyID returns the key name and hash of the log's signature line of a signed checkpoint (the
// line whose name is the origin), without checking it: to name the key, not to trust it.
func LogKeyID(signed []byte) (KeyID, error) {
	c, err := ParseCheckpoint(noteText(signed))
	if err != nil {
		return KeyID{}, err
	}
	for _, l := range strings.Split(string(signed[len(noteText(signed)):]), "\n") {
		b64, ok := strings.CutPrefix(l, "— "+c.Origin+" ")
		if !ok {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err == nil && len(raw) > 4 {
			return KeyID{Name: c.Origin, Hash: binary.BigEndian.Uint32(raw)}, nil
		}
	}
	return KeyID{}, fmt.Errorf("%w checkpoint: no signature by %s", ErrFormat, c.Origin)
}

// MaxSignatures is the most signature lines a signed note may carry: note.Open refuses a note
// with more ("malformed note").
const MaxSignatures = 100

// parseSignatureLine reads a signed note's signature line "— name base64\n": the key's name and
// hash, and the signature after the hash.
func parseSignatureLine(l string) (KeyID, []byte, bool) {
	rest, ok := strings.CutPrefix(l, "— ")
	if !ok || !strings.HasSuffix(rest, "\n") || strings.Count(rest, "\n") != 1 {
		return KeyID{}, nil, false
	}
	name, b64, ok := strings.Cut(strings.TrimSuffix(rest, "\n"), " ")
	raw, err := base64.StdEncoding.DecodeString(b64)
	if !ok || !validName(name) || err != nil || len(raw) <= 4 {
		return KeyID{}, nil, false
	}
	return KeyID{Name: name, Hash: binary.BigEndian.Uint32(raw)}, raw[4:], true
}

// cosignatureVerifiers returns the verifiers of witnesses' cosignature verifier keys.
func cosignatureVerifiers(keys []string) ([]note.Verifier, error) {
	var vs []note.Verifier
	for _, k := range keys {
		v, err := NewCosignatureVerifier(k)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// verifiedLine is a co-signature line checked against a witness's key.
type verifiedLine struct {
	line string
	id   KeyID
	v    note.Verifier
}

// verifiedCosignatures returns, of lines, the co-signatures of the checkpoint text by one of vs
// that verify: the first of each key, in the order given. Every other line is left out: lines of
// other keys, lines that do not verify, and later lines of a key (which note.Open does not check).
func verifiedCosignatures(text string, lines []string, vs []note.Verifier) []verifiedLine {
	var out []verifiedLine
	done := map[KeyID]bool{}
	for _, l := range lines {
		id, sig, ok := parseSignatureLine(l)
		if !ok || done[id] {
			continue
		}
		if v := verifierOf(vs, id); v != nil && v.Verify([]byte(text), sig) {
			done[id] = true
			out = append(out, verifiedLine{line: l, id: id, v: v})
		}
	}
	return out
}

// verifierOf returns the verifier of vs with key id, nil when none has it.
func verifierOf(vs []note.Verifier, id KeyID) note.Verifier {
	for _, v := range vs {
		if v.Name() == id.Name && v.KeyHash() == id.Hash {
			return v
		}
	}
	return nil
}
