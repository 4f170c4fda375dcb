package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Runs of a campaign with --jobs 2 share the machine with each other: they
// are a setup of their own, never pooled with runs measured alone.
func TestJobsAreASetup(t *testing.T) {
	game := "BASE/a/AAAAAA"
	alone := runs{"e", "1", game, 1, 0, jitter(1000, 5)}.rows()
	together := runs{"e", "1", game, 1, 10, jitter(800, 5)}.rows()
	for i := range together {
		together[i].Jobs = 2
		together[i].RunKey += "/jobs2"
	}
	alone[0].Jobs = 1 // 0 (old rows) and 1 are one setup
	c := Analyse(concat(alone, together))
	require.Len(t, c.Groups, 2)
	assert.Equal(t, "2 s", c.Groups[0].Setup.String())
	assert.Equal(t, "2 s, 2 jobs at once", c.Groups[1].Setup.String())
	assert.Len(t, c.Groups[0].Cell(game, Version{"e", "1"}).Runs, 5)
}
