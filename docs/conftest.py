"""pytest: the tutorials' examples run from tests/test_tutorials.py, which gives each what it
needs (its extras, the data sets, the repository as the working folder) or skips it with a
reason, so the doctest collection of docs/*.md leaves them out."""

collect_ignore_glob = ["tutorials/*.md"]
