package results

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestContended(t *testing.T) {
	rows := []Row{
		{RunKey: "a", Status: StatusOK, Contended: true},
		{RunKey: "a", Status: StatusOK, Contended: true},
		{RunKey: "b", Status: StatusOK, Contended: true},
		{RunKey: "b", Status: StatusOK},
		{RunKey: "c", Status: StatusOK},
		{RunKey: "d", Status: StatusCrash},
	}
	assert.Equal(t, map[string]int{"a": 2}, Contended(rows), "b has a clean row; c and d none contended")
}
