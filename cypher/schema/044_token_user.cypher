// The dashboard lists a user's own tokens.
CREATE INDEX api_token_user IF NOT EXISTS FOR (t:ApiToken) ON (t.user_id)
