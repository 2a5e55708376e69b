// How many enabled admins there are (read after `users.lock_directory`).
MATCH (u:User {role: 'admin'})
WHERE NOT u.disabled
RETURN count(u) AS admins
