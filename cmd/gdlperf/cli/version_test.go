package cli

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := run(t, args...)
		assert.Equal(t, ExitOK, code, errOut)
		assert.Regexp(t, `^gdlperf 2\.0\.0-dev( \(.+\))?\n`, out, args)
		assert.Contains(t, out, runtime.Version(), args)
	}
}
