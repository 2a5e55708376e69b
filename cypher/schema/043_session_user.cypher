// Ending every session of a user (disabled, deleted, new password) finds them by user.
CREATE INDEX session_user IF NOT EXISTS FOR (s:Session) ON (s.user_id)
