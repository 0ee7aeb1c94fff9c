"""Writes: every state change of a championship goes through a function here (views stay thin)."""
