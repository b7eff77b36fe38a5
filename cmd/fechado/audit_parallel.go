package main

import (
	"os"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/internal/logfile"
)

// auditFilesParallel is auditFiles on workers cores (audit.ParallelReaders): every file is
// opened first, so a missing one fails before anything is printed, then they are read as one
// log, in order: mapped into memory where they can be (logfile.Map), else read; the blocks of
// lines are decoded on several goroutines at once.
func auditFilesParallel(m *Main, names []string, a *audit.Auditor, workers int) error {
	var logs []audit.Log
	defer func() {
		for _, l := range logs {
			if c, ok := l.R.(*os.File); ok && c != os.Stdin {
				c.Close()
			}
		}
	}()
	stdin := false
	for _, name := range names {
		if name == "-" {
			if stdin {
				return usageErr("standard input (-) given twice")
			}
			stdin = true
			logs = append(logs, audit.Log{R: m.Stdin, Name: "stdin"})
			continue
		}
		b, release, ok, err := logfile.Map(name)
		if err != nil {
			return usageErr("%v", err)
		}
		if ok {
			logs = append(logs, audit.Log{Bytes: b, Done: release, Name: name})
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return usageErr("%v", err)
		}
		logs = append(logs, audit.Log{R: f, Name: name})
	}
	if _, err := audit.ParallelReaders(a, logs, workers); err != nil {
		return usageErr("%v", err) // unreadable
	}
	return nil
}
