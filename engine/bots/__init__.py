"""Bots that play any game through the ``engine.core.model.Rules`` contract."""
