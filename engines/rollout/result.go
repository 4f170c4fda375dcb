package rollout

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Result is the content of an engine process's result file: ordered
// "key = value" lines.
type Result struct {
	keys   []string
	values map[string]string
}

// Set sets key to value, keeping the first position of key. Newlines in
// values are replaced by spaces: every value is one line.
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

// Get returns the value of key.
func (r *Result) Get(key string) (string, bool) {
	v, ok := r.values[key]
	return v, ok
}

// Keys returns the keys in the order they were set.
func (r *Result) Keys() []string { return r.keys }

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

// ParseResult reads a result file's text. Lines without " = " or "=" are
// returned as garbage, never fatal; unknown keys are kept.
func ParseResult(text string) (r *Result, garbage []string) {
	r = &Result{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			garbage = append(garbage, line)
			continue
		}
		r.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	return r, garbage
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
