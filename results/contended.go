package results

// Contended counts, per run key, the contended rows of the keys that have
// no finished row that is not contended: the runs a campaign with
// --rerun-contended may still run again.
func Contended(rows []Row) map[string]int {
	clean := map[string]bool{}
	n := map[string]int{}
	for i := range rows {
		r := &rows[i]
		switch {
		case r.Contended:
			n[r.RunKey]++
		case r.Status == StatusOK || r.Status == StatusWrong:
			clean[r.RunKey] = true
		}
	}
	for k := range clean {
		delete(n, k)
	}
	return n
}
