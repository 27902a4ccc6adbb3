"""Every rule across files: consistency, visible text, the secret scan and its allowlist,
and what the server does after it fetches."""
