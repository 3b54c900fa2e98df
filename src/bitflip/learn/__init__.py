"""Learning: training shards (numpy only), supervised training and the other learners (torch)."""
