// Abandoned single sign-ons are forgotten by expiry.
CREATE INDEX sign_in_flow_expires_at IF NOT EXISTS FOR (f:SignInFlow) ON (f.expires_at)
