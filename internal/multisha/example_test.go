package multisha_test

import (
	"encoding/hex"
	"fmt"

	"github.com/fechado/fechado/internal/multisha"
)

// Every line of a chunk hashed in one call, as the hash chain wants them: the digest of line i
// (without its newline) in sums[i].
func ExampleSumMany() {
	chunk := []byte("{\"seq\":1}\n{\"seq\":2}\n\n")
	spans := multisha.AppendLines(nil, chunk)
	sums := make([][multisha.Size]byte, len(spans))
	multisha.SumMany(sums, chunk, spans)
	for i, s := range spans {
		fmt.Printf("%q %s\n", chunk[s.Off:s.Off+s.Len], hex.EncodeToString(sums[i][:8]))
	}
	// Output:
	// "{\"seq\":1}" b41e95c43f388d56
	// "{\"seq\":2}" 5d5799fb7264dabb
	// "" e3b0c44298fc1c14
}

// The first blocks of the hmac-sha256-fy-v1 shuffle for the seed of events-v1.md's vectors
// (the same as Python's hmac.new(seed, k.to_bytes(8, "big"), hashlib.sha256) gives).
func ExampleHMACCounter() {
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i)
	}
	var blocks [2][multisha.Size]byte
	multisha.HMACCounter(blocks[:], seed, 0)
	for k, b := range blocks {
		fmt.Printf("B_%d = %x…\n", k, b[:8])
	}
	// Output:
	// B_0 = 9f0cd9b94097fe49…
	// B_1 = c432e059c378eef7…
}
