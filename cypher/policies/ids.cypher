// Every policy id, for evaluating them all (disabled ones too: their violations resolve).
MATCH (p:Policy)
RETURN p.id AS id
ORDER BY id
