module github.com/spgo/spgo

go 1.25
