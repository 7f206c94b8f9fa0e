"""The rules engine: cards, rules, melds, actions, the game state, observations, records.

Standard library only (a test enforces it).
"""
