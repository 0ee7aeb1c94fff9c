"""Date and time formats that replace Django's for a language (settings.FORMAT_MODULE_PATH)."""
