"""The ``bitflip`` command: one module per subcommand (see :mod:`bitflip.cli.main`)."""
