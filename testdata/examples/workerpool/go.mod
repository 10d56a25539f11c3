module example.com/workerpool

go 1.24
