"""Live rounds for spectators: numbered notices, their fan-out, and ranking snapshots."""
