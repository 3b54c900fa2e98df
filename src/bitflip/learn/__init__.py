"""Learning: training records (numpy only), supervised training and other learners (torch)."""
