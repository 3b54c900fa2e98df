"""Text protocols: the NBoard engine side (:mod:`.nboard`) and a client for external engines."""
