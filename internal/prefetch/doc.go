// Package prefetch owns the processor's prefetch instruction for the module's Go code: a read of
// memory asked for ahead of time, which the processor answers in the background.
package prefetch
