"""``python -m bitflip``: the same command line as ``bitflip``."""

import sys

from bitflip.cli.main import main

sys.exit(main())
