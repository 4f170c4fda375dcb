package rt

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Result is the content of a result file: ordered "key = value" lines, as
// rollout.Result.
type Result struct {
	keys   []string
	values map[string]string
}

// Set sets key to value (one line), keeping the first position of key.
func (r *Result) Set(key, value string) {
	if r.values == nil {
		r.values = map[string]string{}
	}
	if _, ok := r.values[key]; !ok {
		r.keys = append(r.keys, key)
	}
	r.values[key] = strings.Join(strings.Fields(value), " ")
}

// SetInt sets key to an integer.
func (r *Result) SetInt(key string, v int64) { r.Set(key, strconv.FormatInt(v, 10)) }

// WriteFile writes the result atomically: a temporary file in the same
// folder, synced, then renamed over path.
func (r *Result) WriteFile(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".result-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	for _, k := range r.keys {
		fmt.Fprintf(w, "%s = %s\n", k, r.values[k])
	}
	err = w.Flush()
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// PeakRSSKiB returns the process's peak resident set size (VmHWM) in KiB,
// or -1 where /proc does not tell.
func PeakRSSKiB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return v
				}
			}
		}
	}
	return -1
}
