"""Money by bank transfer: payment references, matching statement lines to entries, waiting-list
offers. Pure: stored facts in, decisions out."""
