// Package driver builds, runs and tests user modules instrumented by
// spgo, without touching the user's files.
//
// Prepare loads the packages to instrument (the main module's packages
// that the targets depend on, plus those named by Config.Instrument),
// rewrites them with package rewrite into a cache directory, and writes
// the two files the go command needs to build them: an -overlay file that
// replaces each instrumented source, and a generated -modfile (a copy of
// the user's go.mod with a require and a replace that add the runtime,
// github.com/spgo/spgo/rtlib, extracted from the source embedded in the
// spbuild binary). In a go.work workspace (in one of its modules, or in
// its directory outside them, where its modules' packages are named by
// import path) a generated workspace file takes the place of the
// -modfile; so it does for a build from vendor/, with a vendor directory
// of its own (vendor.go). The user's tree, go.mod, go.sum and
// go.work are only read: the go commands that list and analyse the
// packages get a -modfile too (a private copy of go.mod), so that
// -mod=mod, as a flag or in GOFLAGS, edits copies only. A package that
// -instrument names in a module of the module cache, whose files the go
// command lets no overlay replace, is instrumented in a copy of its
// module that the entry holds (deps/<path>@<version>), and the generated
// go.mod or go.work replaces the module by the copy (deps.go).
//
// Prepared entries are cached by a hash of everything the rewrite depends
// on (the instrumented packages' files, go.mod and go.sum, the toolchain,
// the build flags and the spbuild binary itself), so an unchanged module
// is not rewritten twice.
package driver
