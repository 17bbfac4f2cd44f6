"""The built-in players: each a ``Strategy`` for ``engine.Game`` and, where it has one, its batch
strategy for ``engine.batch``.

``random`` lives with the protocol (``strategies.base``); here are the simple players and their
batch twins (``fast``, ``batch_basic``), the scalar twins of the compiled policies (``twin``,
``strong``), the heuristic and its Python face over the compiled rules (``heuristic``,
``tactics``), and the search players with what they share (``search``, ``ev``, ``pimc`` and its
open-hand ``solver``, ``mc``, ``ismcts``). Each is registered by its record in
``strategies.catalogue``; what a compiled player decides is written in ``strategies.policies``.
"""
