module example.com/fanout

go 1.25
