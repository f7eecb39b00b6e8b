"""The service layer: a command decoded, decided on the folded state and appended (``handling.py``),
what came of it (``outcomes.py``) or why a request was turned down (``refused.py``), matches created
and their tokens (``matches.py``, ``tokens.py``), the fold cache (``folds.py``), bot seats
(``bots.py``), seat entropy (``entropy.py``). May import ``store`` and ``ops``; knows nothing of
HTTP or RQ: the gateway maps outcomes and refusals to statuses and bodies."""
