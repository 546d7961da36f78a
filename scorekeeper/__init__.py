"""scorekeeper: the score pad for a rummy table, scored from the cards themselves."""
