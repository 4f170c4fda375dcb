package engines

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvCache names the environment variable that overrides gdlperf's cache
// folder, which holds the synced games (gamerepo) and the compiled
// engine's programs.
const EnvCache = "GDLPERF_CACHE"

// CacheDir returns gdlperf's cache folder: $GDLPERF_CACHE, else the user's
// cache folder + /gdlperf.
func CacheDir() (string, error) {
	if d := os.Getenv(EnvCache); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder: %w; set %s", err, EnvCache)
	}
	return filepath.Join(d, "gdlperf"), nil
}
