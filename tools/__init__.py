"""Design-time tools: code that only tests and benches run, kept out of the packages that ship
(pyproject.toml packages domain, projections and services; an import contract keeps them from
importing anything here)."""
