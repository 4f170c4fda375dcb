package cli

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for gdlperf: the harness runs
// built-in engines as "os.Executable() engine run ...", which in tests is
// this binary, so with GDLPERF_TEST_AS_MAIN set it runs Main instead of the
// tests.
func TestMain(m *testing.M) {
	if os.Getenv("GDLPERF_TEST_AS_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Setenv("GDLPERF_TEST_AS_MAIN", "1")
	// Game caches and compiled engine programs go to a temporary folder
	// of the tests', shared by the engine processes they start, never to
	// the user's cache nor to a GDLPERF_CACHE of the environment; it is
	// removed at the end.
	dir, err := os.MkdirTemp("", "gdlperf-cli-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("GDLPERF_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
