package rtlib

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// othersRunnable reports whether a thread of the process other than the
// caller's is running or waiting for a CPU (state R in /proc): the
// holder may then be starved by a loaded machine rather than blocked,
// and the watchdog must not take the baton from it (that would make the
// run depend on the machine's load).
func othersRunnable() bool {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	self := strconv.Itoa(syscall.Gettid())
	dir, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false
	}
	var buf [512]byte
	for _, e := range dir {
		if e.Name() == self {
			continue
		}
		f, err := os.Open("/proc/self/task/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		n, _ := f.Read(buf[:])
		f.Close()
		if threadState(buf[:n]) == 'R' {
			return true
		}
	}
	return false
}

// threadState returns the state letter of a /proc/<pid>/stat line: the
// field after the command, which is in parentheses and may contain any
// byte.
func threadState(stat []byte) byte {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return 0
	}
	return stat[i+2]
}
