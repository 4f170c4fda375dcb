package harness

import (
	"fmt"
	"sync"

	"github.com/gdlperf/gdlperf/engines/transform"
)

// transformCache holds the transformed rulesheets of a campaign, each made
// once per game, transform and seed, for every engine and repetition.
type transformCache struct {
	mu sync.Mutex
	m  map[transformKey]*transformed
}

type transformKey struct {
	game *Game
	name string
	seed uint64
}

type transformed struct {
	once  sync.Once
	rules []byte
	err   error
}

// rulesOf is the rulesheet run r plays: the game's rules, or their rewrite
// by r's transform (engines/transform; a transform name may be a chain
// a,b written a+b). The row's game key stays the original game's.
func (c *Campaign) rulesOf(r Run) ([]byte, error) {
	if r.Dims.Transform == "" || r.Dims.Transform == "none" {
		return r.Game.Rules, nil
	}
	c.transformsMu.Lock()
	if c.transforms == nil {
		c.transforms = &transformCache{m: map[transformKey]*transformed{}}
	}
	k := transformKey{r.Game, r.Dims.Transform, r.Dims.TransformSeed}
	t := c.transforms.m[k]
	if t == nil {
		t = &transformed{}
		c.transforms.m[k] = t
	}
	c.transformsMu.Unlock()
	t.once.Do(func() {
		names, err := transform.ParseNames(transformChain(r.Dims.Transform))
		if err != nil {
			t.err = err
			return
		}
		t.rules, t.err = transform.Apply(names, r.Dims.TransformSeed, r.Game.Rules)
	})
	if t.err != nil {
		return nil, fmt.Errorf("transform %s (seed %d) of %s: %w", r.Dims.Transform, r.Dims.TransformSeed, r.Game.Key, t.err)
	}
	return t.rules, nil
}

// transformChain turns "a+b" into transform's "a,b".
func transformChain(name string) string {
	out := []byte(name)
	for i, b := range out {
		if b == '+' {
			out[i] = ','
		}
	}
	return string(out)
}
