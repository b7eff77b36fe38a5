package main

import "os"

// getenv reads the environment through m.Getenv (os.Getenv when nil), so tests choose the
// language the commands see in LANG and LC_ALL.
func (m *Main) getenv(key string) string {
	if m.Getenv == nil {
		return os.Getenv(key)
	}
	return m.Getenv(key)
}
