"""The service layer: a command decoded, decided on the folded state and appended (``handling.py``),
matches created and their tokens (``matches.py``, ``tokens.py``), the fold cache (``folds.py``), bot
seats (``bots.py``), seat entropy (``entropy.py``), and the API's message Structs (``schemas.py``).
May import ``store`` and ``ops``; knows nothing of HTTP or RQ."""
