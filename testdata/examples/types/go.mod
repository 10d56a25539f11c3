module example.com/types

go 1.25.0
