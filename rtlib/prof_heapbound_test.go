package rtlib

import (
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestHeapBound: the serial figure is held to the most the heap held
// during the run, and a model above it by more than the slack fails the
// self-check.
func TestHeapBound(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name                   string
		seen                   bool
		peak                   int64 // observed bound
		serial, low, high      int64
		wantSerial, wLow, wHig int64
		wantFail               bool
	}{
		{"no observation", false, 0, 100 * mib, 90 * mib, 110 * mib, 100 * mib, 90 * mib, 110 * mib, false},
		{"below the bound", true, 200 * mib, 100 * mib, 90 * mib, 110 * mib, 100 * mib, 90 * mib, 110 * mib, false},
		{"high end lowered", true, 105 * mib, 100 * mib, 90 * mib, 110 * mib, 100 * mib, 90 * mib, 105 * mib, false},
		{"within the slack", true, 99 * mib, 100 * mib, 90 * mib, 110 * mib, 99 * mib, 90 * mib, 99 * mib, false},
		{"contradicted", true, 6 * mib, 568 * mib, 0, 600 * mib, 6 * mib, 0, 6 * mib, true},
		{"contradicted, no interval", true, 6 * mib, 568 * mib, 0, 0, 6 * mib, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &proot{heapSeen: tt.seen, heapPeak: tt.peak}
			out := profile.Root{SerialPeak: tt.serial, SerialLow: tt.low, SerialHigh: tt.high}
			r.heapBound(&out)
			if out.SerialPeak != tt.wantSerial || out.SerialLow != tt.wLow || out.SerialHigh != tt.wHig {
				t.Errorf("serial %d [%d, %d], want %d [%d, %d]", out.SerialPeak, out.SerialLow, out.SerialHigh, tt.wantSerial, tt.wLow, tt.wHig)
			}
			if out.SelfCheckFailed != tt.wantFail || (len(out.Reasons) > 0) != tt.wantFail {
				t.Errorf("self-check failed %v, reasons %q; want %v", out.SelfCheckFailed, out.Reasons, tt.wantFail)
			}
		})
	}
}
