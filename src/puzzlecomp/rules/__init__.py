"""PURE rules engine: rulesets as data, scoring, ranking, qualification, standings, awards,
registration policy. Imports no framework, database or I/O."""
