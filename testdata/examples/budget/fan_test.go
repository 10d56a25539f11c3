package budget

import "testing"

// TestFan has MHWM_p = min(p, 8)·1 MiB: budgets.txt allows 5 MiB at
// p = 4 and 9 MiB at the largest p.
func TestFan(t *testing.T) {
	if got := Fan(); len(got) != Workers {
		t.Fatalf("%d bytes, want %d", len(got), Workers)
	}
}

// TestOne has MHWM_p = 1 MiB; its marker allows 2 MiB at every p.
//
//spgo:budget 2MiB
func TestOne(t *testing.T) {
	if got := One(); got != 2 {
		t.Fatalf("One() = %d, want 2", got)
	}
}
