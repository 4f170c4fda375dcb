package conform

// Internals the external tests replay mismatches with.
var (
	MoveTexts = moveTexts
	SetDiff   = setDiff
	Keys      = keys
)
