"""Process plumbing every layer may use: settings from the environment, JSON logs, metrics, and the
garbage collector's settling. Imports nothing else of ``services``."""
