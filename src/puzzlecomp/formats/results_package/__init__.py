"""The open results package: a championship's public results as one signed JSON document
(docs/results-package.md)."""
