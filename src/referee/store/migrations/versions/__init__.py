"""The revisions, oldest first by number."""
