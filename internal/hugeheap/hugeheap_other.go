//go:build !linux

package hugeheap

func prepare(int) {}
