"""``python -m rummykit``: the ``rummy`` command."""

import sys

TYPE_CHECKING = False  # as in rummykit.cli: no import before the hook below is set
if TYPE_CHECKING:
    from types import TracebackType


def _stopped_quietly(
    kind: type[BaseException], error: BaseException, trace: "TracebackType | None"
) -> None:
    """A Ctrl+C that comes before ``main`` catches it ends with a line, not a traceback."""
    if issubclass(kind, KeyboardInterrupt):
        print("Stopped (Ctrl+C).", file=sys.stderr)
    else:
        sys.__excepthook__(kind, error, trace)


# First thing: ``main`` catches Ctrl+C only once this module has imported it. (Python still
# exits as a Ctrl+C ends a program: by SIGINT, which a shell reports as 130.)
sys.excepthook = _stopped_quietly

from rummykit.cli import main  # noqa: E402

raise SystemExit(main())
