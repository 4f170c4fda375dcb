package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchmath"
)

// FormatRate prints a rate with three significant digits and an SI suffix:
// 0.123, 12.3, 1.23k, 45.6M.
func FormatRate(x float64) string {
	switch {
	case math.IsNaN(x):
		return "—"
	case math.IsInf(x, 1):
		return "∞"
	case x == 0:
		return "0"
	}
	suffix := ""
	for _, s := range []string{"k", "M", "G", "T"} {
		if math.Abs(x) < 999.5 {
			break
		}
		x /= 1000
		suffix = s
	}
	return sig3(x) + suffix
}

func sig3(x float64) string {
	a := math.Abs(x)
	switch {
	case a >= 99.95:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case a >= 9.995:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case a >= 0.9995:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case a >= 0.001:
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strconv.FormatFloat(x, 'e', 2, 64)
}

// FormatRatio prints a ratio with four significant digits: 383.6, 1.052,
// 0.04817; ∞ for +Inf and — when undefined.
func FormatRatio(x float64) string {
	a := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return "—"
	case math.IsInf(x, 1):
		return "∞"
	case x == 0:
		return "0"
	case a >= 999.95:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case a >= 99.995:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case a >= 9.9995:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case a >= 0.99995:
		return strconv.FormatFloat(x, 'f', 3, 64)
	case a >= 0.0001:
		return strconv.FormatFloat(x, 'f', 4-int(math.Floor(math.Log10(a))+1), 64)
	}
	return strconv.FormatFloat(x, 'e', 3, 64)
}

// FormatInterval prints a ratio's interval as [lo, hi], or ±∞ when unbounded.
func FormatInterval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "—"
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return "±∞"
	}
	return "[" + FormatRatio(lo) + ", " + FormatRatio(hi) + "]"
}

// FormatSpread prints the half-width of a rate's 95% interval as benchstat
// does: ±3%, or ±∞ with too few runs.
func FormatSpread(s benchmath.Summary) string {
	return "±" + s.PctRangeString()
}

// FormatP prints a p-value, or — when there is none.
func FormatP(c benchmath.Comparison) string {
	if c.N1 == 0 || c.N2 == 0 {
		return "—"
	}
	return strconv.FormatFloat(c.P, 'f', 3, 64)
}

// FormatPercent prints a fraction as a percentage: 0.2 → 20%.
func FormatPercent(f float64) string {
	if f == 0 {
		return "0%"
	}
	p := f * 100
	switch {
	case p >= 0.995:
		return strconv.FormatFloat(p, 'f', 0, 64) + "%"
	case p >= 0.0995:
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(p, 'g', 2, 64) + "%"
}

// FormatKiB prints a memory size in KiB with a binary suffix.
func FormatKiB(kib int64) string {
	if kib <= 0 {
		return "—"
	}
	x := float64(kib)
	for _, s := range []string{"KiB", "MiB", "GiB"} {
		if x < 1023.5 || s == "GiB" {
			return sig3(x) + " " + s
		}
		x /= 1024
	}
	return ""
}

// FormatMs prints milliseconds, — when negative (not reported).
func FormatMs(ms float64) string {
	switch {
	case ms < 0 || math.IsNaN(ms):
		return "—"
	case ms >= 10000:
		return strconv.FormatFloat(ms/1000, 'f', 1, 64) + " s"
	}
	return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
}

// plain makes s safe for a terminal column: control characters (tabs, line
// ends, escapes) and invalid UTF-8 become '?'.
func plain(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") || unicode.IsControl(r) {
			b.WriteByte('?')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// plural returns "1 game" or "2 games" ("2 mismatches").
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "sh") || strings.HasSuffix(noun, "s") || strings.HasSuffix(noun, "x") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
