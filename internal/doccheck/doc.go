// Package doccheck holds a test, no code: it checks that the repository
// stands on its own. Every citation of a docs/ page in the module's Go
// and Markdown files names a page that exists and, when it quotes a
// section ("docs/algorithms.md, \"Busy leaves\""), a heading of that
// page; and no file cites a document outside the repository (the
// design and algorithm specifications that spgo was first written
// from, or their numbered sections).
package doccheck
