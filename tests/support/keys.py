"""The key this test session's services seal secrets with (webhook secrets, sessions):
the CLI, run as a separate process, must use the same one to make what they read."""

from __future__ import annotations

from cryptography.fernet import Fernet

TEST_SECRET_KEY = Fernet.generate_key().decode()
