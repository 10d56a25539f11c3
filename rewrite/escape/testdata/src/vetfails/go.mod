module vetfails

go 1.25
