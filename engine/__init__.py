"""Pure-Python game engine: the game model, the games, the fairness layer and the table protocol."""
