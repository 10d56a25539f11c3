module lost

go 1.25
