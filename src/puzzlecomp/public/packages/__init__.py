"""The public verification of results packages and certificates (docs/results-package.md)."""
