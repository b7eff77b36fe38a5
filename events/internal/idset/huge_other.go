//go:build !linux

package idset

// hugePages does nothing where there is no madvise to give: the table keeps its pages.
func hugePages(lines []idLine) {}
