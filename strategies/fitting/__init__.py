"""Fitting ``strong``'s tables: its bid outcomes counted in self-play (``bids``) and its card model
distilled from ``mc``'s play (``distil``), written where ``strategies.policies.fitted`` finds
them. Nothing here runs while a game is played."""
