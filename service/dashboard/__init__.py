"""The dashboard: server-rendered pages for people, signed in with a session cookie."""
