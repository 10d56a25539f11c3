module mains

go 1.25
