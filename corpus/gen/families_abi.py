"""Corpus families added in session 8 (issue 23): see this module's first function.
FAMILIES lists them; families.all_cases() runs them after the others."""

FAMILIES = ()
