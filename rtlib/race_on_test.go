//go:build race

package rtlib

// raceEnabled: the test binary runs under the race detector.
const raceEnabled = true
