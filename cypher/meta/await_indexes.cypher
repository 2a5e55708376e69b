// Start-up waits until the schema's indexes are online before reporting ready.
CALL db.awaitIndexes(300)
