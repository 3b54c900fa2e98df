OUTCOMES_ENV = "BITFLIP_TEST_OUTCOMES"
"""Names the file where a child pytest writes each test's outcome (``conftest.py``)."""
