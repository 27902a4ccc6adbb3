"""The catalog's git history: versions per role, word diffs, Atom feeds."""
