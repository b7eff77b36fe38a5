package console

import "time"

// SetClock makes c count SeedLife by now instead of the time of day.
func SetClock(c *Console, now func() time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = now
}

// SetMaxSeeds lowers the most seeds c holds in all (MaxSeeds), for a test with few devices.
func SetMaxSeeds(c *Console, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.maxSeeds = n
}
