package main

import (
	"os"

	"github.com/fechado/fechado/audit"
)

// auditFilesParallel is auditFiles on workers cores (audit.ParallelReaders): every file is
// opened first, so a missing one fails before anything is printed, then they are read as one
// log, in order; the blocks of lines are decoded on several goroutines at once. The files are
// read, not mapped as one core reads them (logfile): mapped, the pages of the whole file stayed in
// the process's memory (500 MB for a 537 MB log, where one core holds 60 MB), for a reason not
// found yet.
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
