package b

import "a"

// Run calls a's Serve and Stop: their facts cross the package boundary,
// but for Stop's cancel, which stays in Stop's own operations.
func Run(s *a.Server) { // want Run:"^recv\\|add\\|done\\|wait$"
	s.Serve()
	s.Stop()
}

// Trim only calls a's Limit: nothing to record.
func Trim(x string) string { return a.Limit(x, 3) }

// Pause sleeps through a's Sleeper.
func Pause() { a.Sleeper() } // want Pause:"^sleep$"
