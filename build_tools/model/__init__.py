"""The catalog as values: Catalog -> Bundle -> role, its JSON Schemas and the model words."""
