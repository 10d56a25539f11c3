module sites

go 1.25
