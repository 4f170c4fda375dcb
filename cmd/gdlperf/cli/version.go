package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is gdlperf's own version: its release, and the revision it was
// built from when the build recorded one. Every results row records it
// (gdlperf_version).
const Version = "2.0.0-dev"

// BuildVersion is Version with the module version `go install` recorded
// and the VCS revision of the build (with "+dirty" for a modified tree),
// where the build has them: "2.0.0-dev (a6d2574c8e1f+dirty)".
func BuildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	var extra []string
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		extra = append(extra, v)
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		extra = append(extra, rev+modified)
	}
	if len(extra) == 0 {
		return Version
	}
	return Version + " (" + strings.Join(extra, ", ") + ")"
}

// versionText is what `gdlperf --version` and `gdlperf version` print.
func versionText() string {
	return fmt.Sprintf("gdlperf %s\n%s %s/%s\n", BuildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
