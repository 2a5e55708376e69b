// A single sign-on under way is found by the SHA-256 of its `state`, once.
CREATE CONSTRAINT sign_in_flow_state IF NOT EXISTS FOR (f:SignInFlow) REQUIRE f.state_hash IS UNIQUE
