package audit

// BlockSize is how much of a log one decoding job of ParallelReaders takes, for tests that make
// block boundaries fall everywhere.
var BlockSize = &blockSize
