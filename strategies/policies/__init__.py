"""The compiled policies: numba functions of the rules core's state that decide for a seat, and
the loop that plays whole games with them.

``compiled`` holds the codes of the compiled policies, the simple ones (``lowest``, ``random``,
``fastheuristic``, with its tables in ``fast_tables``), the policy table they read and the loops
(``play_on``, ``run_games``, the lockstep ``Stepper``); ``playout`` plays a deal out for the search
players; ``keep`` is the keep-or-decline rule every player shares. ``strong``'s policy is split by
what it decides (``strong`` itself, the entry point), and ``fitted`` finds the fitted tables it
bids and plays with (shipped with the presets, or fitted by the user: ``strategies.fitting``).
"""
