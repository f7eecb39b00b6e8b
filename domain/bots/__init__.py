"""Bots that play from a seat's view and legal commands only."""
