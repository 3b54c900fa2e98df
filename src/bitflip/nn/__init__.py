"""Neural networks (the only package that imports torch at the top of its modules)."""
