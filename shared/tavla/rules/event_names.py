"""The detail types of the day's domain events, named once for the pure model and the bus."""

# matches put on a table: players are called (in-app, SMS, board) and no-show deadlines set (R6)
MATCHES_CALLED = "MatchesCalled"
# a result became official: the bracket moved on; ratings and season points consume it (R10)
RESULT_CONFIRMED = "ResultConfirmed"
# a match was written (a live score, a declaration, a dispute, a call, a result): the live
# channel tells the screens that show it to refetch
MATCH_CHANGED = "MatchChanged"
