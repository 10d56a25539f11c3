module example.com/explosion

go 1.21
