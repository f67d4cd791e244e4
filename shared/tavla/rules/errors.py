class RuleViolation(ValueError):
    """A request the rules of backgammon or of the tournament do not allow."""
