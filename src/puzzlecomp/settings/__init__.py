"""Django settings: base (shared), dev (the default), test and prod."""
