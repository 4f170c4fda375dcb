package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Fingerprint describes the machine that ran a campaign. Rows of different
// fingerprints are never mixed in one ratio.
type Fingerprint struct {
	Host      string
	CPUModel  string
	Governor  string
	GoVersion string
	Kernel    string
	CPUs      int
}

// ID is a short hash of everything but the host's load.
func (f Fingerprint) ID() string {
	h := sha256.Sum256([]byte(strings.Join([]string{f.Host, f.CPUModel, f.Governor, f.GoVersion, f.Kernel, strconv.Itoa(f.CPUs)}, "\x00")))
	return hex.EncodeToString(h[:6])
}

// ReadFingerprint reads the machine's description from /proc and /sys;
// what cannot be read is "unknown".
func ReadFingerprint() Fingerprint {
	f := Fingerprint{GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), CPUModel: "unknown", Governor: "unknown", Kernel: "unknown"}
	f.Host, _ = os.Hostname()
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				f.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"); err == nil {
		f.Governor = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		f.Kernel = strings.TrimSpace(string(b))
	}
	return f
}

// LoadAverage returns the 1-minute load average, or "".
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return ""
}
