"""``python -m rummykit``: the ``rummy`` command."""

from rummykit.cli import main

raise SystemExit(main())
