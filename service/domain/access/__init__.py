"""Who may do what, with no I/O: scopes and roles, the caller (`Principal`), the API
token format, password hashing and the rules of dashboard sessions."""
