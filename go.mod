module github.com/spgo/spgo

go 1.25.0

require (
	github.com/dave/dst v0.27.3
	github.com/google/pprof v0.0.0-20260906184651-6331bc6350fe
	golang.org/x/mod v0.39.0
	golang.org/x/sync v0.22.0
	golang.org/x/tools v0.49.0
)
