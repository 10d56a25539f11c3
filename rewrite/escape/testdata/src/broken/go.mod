module broken

go 1.25
