package engines_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gdlperf/gdlperf/engines"
)

func TestCacheDir(t *testing.T) {
	tests := []struct {
		name, env, home, xdg string
		want, wantErr        string
	}{
		{name: "the variable wins", env: "/tmp/c", home: "/home/u", want: "/tmp/c"},
		{name: "the user's cache folder", xdg: "/home/u/.cache", want: filepath.Join("/home/u/.cache", "gdlperf")},
		{name: "none", wantErr: "set " + engines.EnvCache},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(engines.EnvCache, tt.env)
			t.Setenv("HOME", tt.home)
			t.Setenv("XDG_CACHE_HOME", tt.xdg)
			got, err := engines.CacheDir()
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
