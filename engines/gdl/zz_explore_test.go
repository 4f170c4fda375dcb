package gdl

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func measure(t *testing.T, name string, src string, lim Limits) {
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	st := time.Now()
	g, err := Check("x", []byte(src), lim)
	el := time.Since(st)
	runtime.ReadMemStats(&m1)
	n := 0
	if g != nil {
		n = len(g.Rules)
	}
	t.Logf("%s: %d bytes, %v, alloc %d MB, err=%v rules=%d", name, len(src), el, (m1.TotalAlloc-m0.TotalAlloc)>>20, err, n)
}

func TestExplore(t *testing.T) {
	var b strings.Builder
	b.WriteString("(<= p (not (or")
	for i := 0; i < 15000; i++ {
		b.WriteString(" a")
	}
	b.WriteString(")))")
	measure(t, "notor15000", b.String(), DefaultLimits)
	b.Reset()
	b.WriteString("(<= p")
	for i := 0; i < 12; i++ {
		b.WriteString(" (or a b)")
	}
	for i := 0; i < 5000; i++ {
		b.WriteString(" c")
	}
	b.WriteString(")")
	measure(t, "or12x5000", b.String(), DefaultLimits)
	b.Reset()
	b.WriteString("(<= p")
	for i := 0; i < 5000; i++ {
		b.WriteString(" (distinct ?z a)")
	}
	for i := 0; i < 5000; i++ {
		b.WriteString(" c")
	}
	b.WriteString(" (q ?z))")
	measure(t, "order5000", b.String(), DefaultLimits)
	b.Reset()
	b.WriteString("(<= (p")
	for i := 0; i < 10000; i++ {
		b.WriteString(" ?v")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(string(rune('a' + (i/26)%26)))
		b.WriteString(string(rune('a' + (i/676)%26)))
	}
	b.WriteString(") q)")
	measure(t, "vars10000", b.String(), DefaultLimits)
}
