"""Bytes in, values with source positions out: JSON and YAML (the core schema) read
as the server reads them, and the files they come from, read without trusting them."""
