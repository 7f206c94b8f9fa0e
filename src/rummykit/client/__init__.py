"""The reference client for programs at a party's table (``rummy party new``, ``rummy join``).

Parts: ``web`` (the party's HTTP calls), ``sockets`` (addresses, reconnecting with backoff),
``party`` (the party's socket until its table is dealt), ``player`` (the table's socket and a
bot playing the seat), ``seat_file`` (the token kept on this device), ``report`` (what the
commands print), ``commands`` and ``cli`` (the two commands). ``docs/PROTOCOL.md`` describes
the protocol they speak, for programs in any language.
"""
