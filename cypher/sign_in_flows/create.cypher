// Keep what the callback of a single sign-on needs (the nonce, the PKCE verifier, the
// page to return to) on the server, under the SHA-256 of its `state`.
CREATE (f:SignInFlow $props)
