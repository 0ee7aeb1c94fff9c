"""Bank files: statements read (camt.053, bank CSV exports), payment QR payloads written, credit
transfers written (pain.001)."""
