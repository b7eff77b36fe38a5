module github.com/fechado/fechado

go 1.26.8
