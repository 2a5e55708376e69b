// Store a new dashboard session under the SHA-256 of its cookie value.
CREATE (s:Session $props)
