module github.com/governance-service/governance/clients/go

go 1.24
