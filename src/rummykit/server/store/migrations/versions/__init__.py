"""The revisions, oldest first: ``v0001`` is the schema of the store's version 7."""
