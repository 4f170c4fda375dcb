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
	MemoryMiB int64
}

// ID is a short hash of what makes a machine that kind of machine: CPU
// model, logical CPUs, memory (in GiB), the frequency governor and the
// kernel's major version. The host name is not part of it, so the
// ephemeral runners of one CI runner type share an ID (the host stays a
// column of every row), and neither are the Go version or the kernel's
// minor releases.
func (f Fingerprint) ID() string {
	major, _, _ := strings.Cut(f.Kernel, ".")
	h := sha256.Sum256([]byte(strings.Join([]string{f.CPUModel, strconv.Itoa(f.CPUs), strconv.FormatInt((f.MemoryMiB+512)>>10, 10), f.Governor, major}, "\x00")))
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
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				if fs := strings.Fields(rest); len(fs) > 0 {
					kib, _ := strconv.ParseInt(fs[0], 10, 64)
					f.MemoryMiB = kib >> 10
				}
				break
			}
		}
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
