module github.com/governance-service/governance-go

go 1.24
