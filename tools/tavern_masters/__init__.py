"""Tavern Masters' design-time tools: the solver that measures the Challenge Chart's levels."""
