package rollout

import "github.com/gdlperf/gdlperf/engines/protocol"

// Result is a parsed result file whose keys are asked by their text.
//
// Deprecated: use protocol.Result, whose keys are protocol.Key; this
// wrapper serves the callers not yet moved.
type Result struct{ *protocol.Result }

// Get returns the value of key.
func (r *Result) Get(key string) (string, bool) { return r.Result.Get(protocol.Key(key)) }

// ParseResult is protocol.Parse.
//
// Deprecated: use protocol.Parse.
func ParseResult(text string) (r *Result, garbage []string) {
	res, garbage := protocol.Parse(text)
	return &Result{res}, garbage
}
