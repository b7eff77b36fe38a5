//go:build !unix

package checkpoint

import "os"

// lockTree is a no-op where flock is not available.
func lockTree(*os.File) error { return nil }
