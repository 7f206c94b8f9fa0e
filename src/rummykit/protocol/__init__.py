"""The wire between the server and its clients: typed messages, closed vocabularies, limits.

Below both the server and the client (``rummy party``, ``rummy join``, ``rummy bot``): the
socket messages (``messages``), the HTTP bodies and answers (``api``, ``party``, ``account``),
a table's stored settings (``settings``), what a viewer is sent (``views``), how much a client
may ask (``limits``) and the JSON Schema of it all (``python -m rummykit.protocol.schema``).
"""
