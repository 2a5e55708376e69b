// Forget single sign-ons that expired without a callback (the visitor went away).
MATCH (f:SignInFlow)
WHERE f.expires_at <= $now
DELETE f
