"""The fairness layer: commitments, joint randomness, the mental-poker deck and its crypto."""
