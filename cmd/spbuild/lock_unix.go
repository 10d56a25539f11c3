//go:build unix

package main

import (
	"os"
	"syscall"
)

// haveLocks says whether lockFile works here.
const haveLocks = true

// lockFile locks f exclusively if no one holds it; the lock lasts until f
// is closed or the process ends.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
