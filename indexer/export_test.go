package indexer

// SetBudget sets s's parse budget in progress checks (0: by the source's
// length), so a test can stop a parse at each point in turn.
func SetBudget(s *Scanner, checks uint64) { s.setBudget(checks) }
