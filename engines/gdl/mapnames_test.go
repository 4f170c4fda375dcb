package gdl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMapNames(t *testing.T) {
	m := map[string]string{"cell": "zq", "x": "kw", "1": "1"}
	assert.Equal(t, "(zq 1 2 kw)", MapNames("(cell 1 2 x)", m))
	assert.Equal(t, "(<= (next (zq ?m kw)) (true (zq ?m kw)))", MapNames("(<= (next (cell ?m x)) (true (cell ?m x)))", m))
	assert.Equal(t, "noop", MapNames("noop", m), "names not in the map stay")
	assert.Equal(t, "xx", MapNames("xx", m), "whole tokens only")
}
