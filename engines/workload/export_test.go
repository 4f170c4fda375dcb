package workload

// SetLimits lowers the tree and table bounds for a test and returns the
// function that restores them.
func SetLimits(uctNodes int64, pnsStates int) (restore func()) {
	u, p := maxUCTNodes, maxPNSStates
	maxUCTNodes, maxPNSStates = uctNodes, pnsStates
	return func() { maxUCTNodes, maxPNSStates = u, p }
}
